#pragma once
// `bubblescope screenshot PATH --out FILE.png|svg [--bubble ID] [--size WxH]`: the timeline picture the
// window's File ▸ Export ▸ Timeline image makes, drawn off screen (no display needed), for batch use.
int runScreenshotCommand(int argc, char** argv);
