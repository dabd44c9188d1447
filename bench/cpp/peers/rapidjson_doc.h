// A RapidJSON Document whose value and parse-stack allocators draw from
// buffers kept across parses, so repeated parsing does not grow memory or
// call malloc (a Document reused as is keeps every old value in its pool).
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace bench {

// Document whose parse stack also lives in a pool (the default CrtAllocator
// stack is freed and re-allocated by every Parse). Its values are ordinary
// rapidjson::Value objects.
using JsonDocument = rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>,
                                                rapidjson::MemoryPoolAllocator<>>;

class JsonDoc {
public:
    JsonDoc() : values_(64 * 1024), stack_(16 * 1024), value_alloc_(values_.data(), values_.size()),
                stack_alloc_(stack_.data(), stack_.size()) {}

    JsonDocument& parse(const uint8_t* p, size_t n) {
        doc_.reset();
        value_alloc_.Clear();
        stack_alloc_.Clear();
        doc_.emplace(&value_alloc_, 1024, &stack_alloc_);
        doc_->Parse(reinterpret_cast<const char*>(p), n);
        return *doc_;
    }

private:
    std::vector<char> values_, stack_;
    rapidjson::MemoryPoolAllocator<> value_alloc_;
    rapidjson::MemoryPoolAllocator<> stack_alloc_;
    std::optional<JsonDocument> doc_;
};

}  // namespace bench
