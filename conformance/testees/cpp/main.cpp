// The C++ conformance testee: reads length-prefixed JSON requests on stdin,
// answers on stdout (conformance/testee_protocol.md).
#include "testee.h"

#include <cstdio>
#include <iostream>
#include <vector>

namespace testee {

std::string reply(const char* kind, const std::string& text)
{
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    w.Key(kind);
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

std::string reply_object(const std::string& json) { return "{\"result\":" + json + "}"; }

std::string base64(const uint8_t* data, std::size_t size) { return FBE::JSON::detail::base64_encode(data, size); }

std::vector<uint8_t> unbase64(const rapidjson::Value& v)
{
    FBE::buffer_t bytes = FBE::JSON::detail::base64_decode(std::string_view(v.GetString(), v.GetStringLength()));
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

} // namespace testee

static bool read_exact(std::vector<char>& out, std::size_t n)
{
    out.resize(n);
    return n == 0 || std::fread(out.data(), 1, n, stdin) == n;
}

int main()
{
    std::vector<char> head, body;
    while (read_exact(head, 4)) {
        const uint32_t size = static_cast<uint32_t>(static_cast<unsigned char>(head[0])) |
                              static_cast<uint32_t>(static_cast<unsigned char>(head[1])) << 8 |
                              static_cast<uint32_t>(static_cast<unsigned char>(head[2])) << 16 |
                              static_cast<uint32_t>(static_cast<unsigned char>(head[3])) << 24;
        if (!read_exact(body, size))
            return 1;
        rapidjson::Document request;
        request.Parse<rapidjson::kParseFullPrecisionFlag>(body.data(), body.size());
        std::string answer;
        if (request.HasParseError() || !request.IsObject()) {
            answer = testee::reply("skipped", "request is not a JSON object");
        } else if (request.HasMember("quit")) {
            return 0;
        } else {
            try {
                const std::string type = std::string(testee::member(request, "package").GetString()) + "." +
                                         testee::member(request, "type").GetString();
                const auto& table = testee::handlers();
                auto it = table.find(type);
                answer = it == table.end() ? testee::reply("skipped", "type " + type + " is not compiled in")
                                           : it->second(request);
            } catch (const std::exception& e) {
                answer = testee::reply("serialize_error", std::string("UNEXPECTED exception: ") + e.what());
            }
        }
        const uint32_t n = static_cast<uint32_t>(answer.size());
        const unsigned char len[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                                      static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
        std::fwrite(len, 1, 4, stdout);
        std::fwrite(answer.data(), 1, answer.size(), stdout);
        std::fflush(stdout);
    }
    return 0;
}
