#pragma once
// Python's iterator over a dict, a dict's view or a set refuses to go on once the container
// changed size: a RuntimeError at the step after the change (the one that would end the
// loop too). `for` loops and every level of a comprehension check through this.

#include <cstddef>
#include <memory>

#include "script/interpreter.h"
#include "script/set_object.h"
#include "script/value.h"

namespace fusescope {

class SizeChangeCheck {
public:
    // `iterable` must outlive the check (the loop holds it).
    explicit SizeChangeCheck(const Value& iterable) {
        if (const auto* view = iterable.as<DictViewObject>()) viewed_ = view->dict.lock();
        dict_ = viewed_ ? viewed_.get() : iterable.as<DictObject>();
        set_ = iterable.as<SetObject>();
        size_ = dict_ ? dict_->items.size() : set_ ? set_->size() : 0;
    }
    // Before the next item, or (atEnd) where the loop would end. An OrderedDict's iterator
    // checks only when it has a next item, with its own message.
    void check(const Interpreter& interp, bool atEnd = false) const {
        if (dict_ && dict_->items.size() != size_) {
            if (!dynamic_cast<const OrderedDictObject*>(dict_))
                interp.fail("RuntimeError", "dictionary changed size during iteration");
            else if (!atEnd)
                interp.fail("RuntimeError", "OrderedDict mutated during iteration");
        }
        if (set_ && set_->size() != size_) interp.fail("RuntimeError", "Set changed size during iteration");
    }

private:
    std::shared_ptr<const DictObject> viewed_;  // a view's dict, held while the loop runs
    const DictObject* dict_ = nullptr;
    const SetObject* set_ = nullptr;
    size_t size_ = 0;
};

}  // namespace fusescope
