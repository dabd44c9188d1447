// libFuzzer target: JSON readers (RapidJSON + FBE::JSON::from_json) on
// arbitrary text, then writing what was read back out.
#include "proto_json.h"
#include "test_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstddef>
#include <cstdint>

namespace {

template <typename T>
void read_json(const rapidjson::Document& json, std::size_t text_size)
{
    T value{};
    FBE::JSON::from_json(json, value, FBE::Limits(), text_size); // with the decode budget (docs/limits.md 3)
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    FBE::JSON::to_json(writer, value);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t selector = data[0];
    rapidjson::Document json;
    const std::size_t text_size = size - 1;
    if (!FBE::JSON::parse(json, std::string_view(reinterpret_cast<const char*>(data + 1), text_size)))
        return 0;
    switch (selector % 4) {
        case 0: read_json<::proto::Account>(json, text_size); break;
        case 1: read_json<::test::StructNested>(json, text_size); break;
        case 2: read_json<::test::StructMap>(json, text_size); break;
        default: read_json<::test::StructHashEx>(json, text_size); break;
    }
    return 0;
}
