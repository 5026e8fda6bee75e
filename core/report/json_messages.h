#pragma once
// Before a JSON document is dumped, its string values that hold sentences of the analysis (core/i18n)
// are written in the output language, so no message mark reaches a file.
#include "i18n/message.h"

namespace bs {

template <class Json>
void renderMessagesIn(Json& j) {
    if (j.is_string()) {
        const auto& s = j.template get_ref<const typename Json::string_t&>();
        if (hasMessage(s)) j = render(s);
    } else if (j.is_structured()) {
        for (auto& child : j) renderMessagesIn(child);
    }
}

} // namespace bs
