#pragma once
// The view keys both timelines share (the rank's timeline and the Ranks tab): W, + and = zoom in, S and − zoom
// out (around the mouse over the plot, else the middle), A and D pan a fifth of the plot, F fits the capture.
// `arrowsPan`: ← and → pan too (the Ranks tab; the rank's timeline leaves the arrows to the lanes' scroll area).
// One mapping, so the two stay alike and tests/docs/check_glossary.py finds every key bound here.
#include <Qt>

namespace bs::ui {

enum class ViewKey { None, ZoomIn, ZoomOut, PanLeft, PanRight, Fit };

inline ViewKey viewKeyOf(int key, bool arrowsPan) {
    switch (key) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        return ViewKey::ZoomIn;
    case Qt::Key_S:
    case Qt::Key_Minus:
        return ViewKey::ZoomOut;
    case Qt::Key_A:
        return ViewKey::PanLeft;
    case Qt::Key_D:
        return ViewKey::PanRight;
    case Qt::Key_Left:
        return arrowsPan ? ViewKey::PanLeft : ViewKey::None;
    case Qt::Key_Right:
        return arrowsPan ? ViewKey::PanRight : ViewKey::None;
    case Qt::Key_F:
        return ViewKey::Fit;
    default:
        return ViewKey::None;
    }
}

// Applies a view key to a timeline with zoomBy(factor, anchor x), panByPixels(dx) and fit(); false for None.
template <class Timeline> bool applyViewKey(Timeline& t, ViewKey k, double anchor, double plotWidth) {
    switch (k) {
    case ViewKey::ZoomIn: t.zoomBy(1.5, anchor); return true;
    case ViewKey::ZoomOut: t.zoomBy(1 / 1.5, anchor); return true;
    case ViewKey::PanLeft: t.panByPixels(-plotWidth / 5.0); return true;
    case ViewKey::PanRight: t.panByPixels(plotWidth / 5.0); return true;
    case ViewKey::Fit: t.fit(); return true;
    case ViewKey::None: return false;
    }
    return false;
}

} // namespace bs::ui
