// The C++ conformance testee: reads length-prefixed JSON requests on stdin,
// answers on stdout (conformance/testee_protocol.md).
#include "testee.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// ---------------------------------------------------------------- heap measurement ("measure": true)
//
// Every allocation (operator new, RapidJSON's allocator, the C library) goes through malloc, so the
// testee replaces the C library's entry points (glibc's __libc_* functions do the work) and counts the
// bytes in use; a measured request reports the highest count above the one before it. One thread.

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);
}

namespace heap {
std::size_t in_use = 0;
std::size_t peak = 0;

inline void* added(void* p)
{
    if (p) {
        in_use += malloc_usable_size(p);
        if (in_use > peak)
            peak = in_use;
    }
    return p;
}

inline void removed(void* p)
{
    if (p) {
        const std::size_t n = malloc_usable_size(p);
        in_use = n > in_use ? 0 : in_use - n;
    }
}
} // namespace heap

extern "C" {
void* malloc(std::size_t size) { return heap::added(__libc_malloc(size)); }
void* calloc(std::size_t n, std::size_t size) { return heap::added(__libc_calloc(n, size)); }
void free(void* p)
{
    heap::removed(p);
    __libc_free(p);
}
void* realloc(void* p, std::size_t size)
{
    heap::removed(p);
    void* q = __libc_realloc(p, size);
    if (!q && p && size)
        heap::added(p);                 // the old block is still there
    return heap::added(q);
}
void* memalign(std::size_t alignment, std::size_t size) { return heap::added(__libc_memalign(alignment, size)); }
void* aligned_alloc(std::size_t alignment, std::size_t size) { return memalign(alignment, size); }
int posix_memalign(void** out, std::size_t alignment, std::size_t size)
{
    void* p = memalign(alignment, size);
    if (!p)
        return 12;                      // ENOMEM
    *out = p;
    return 0;
}
}

namespace testee {

std::string reply(const char* kind, const std::string& text)
{
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    w.Key(kind);
    FBE::JSON::detail::write_string(w, text.data(), text.size(), false); // (an error may quote bytes that are not UTF-8)
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

std::string reply_object(const std::string& json) { return "{\"result\":" + json + "}"; }

std::string base64(const uint8_t* data, std::size_t size) { return FBE::JSON::detail::base64_encode(data, size); }

std::vector<uint8_t> unbase64(const rapidjson::Value& v)
{
    FBE::buffer_t bytes;
    FBE::JSON::detail::base64_decode(std::string_view(v.GetString(), v.GetStringLength()), bytes);
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

} // namespace testee

//! The request with each lone high surrogate escape (\ud800..\udbff not followed by a low one), which RapidJSON
//! refuses (the whole request), replaced by the three bytes it reads a lone low one as (ED A0..AF xx): a value
//! description's string holding one then reaches from_value, which refuses it naming the field.
static void keep_lone_high_surrogates(std::vector<char>& body)
{
    const auto unit = [&](std::size_t i) -> long {     // the code unit of the escape \uXXXX at i, or -1
        if (i + 6 > body.size() || body[i] != '\\' || body[i + 1] != 'u')
            return -1;
        char* end = nullptr;
        const std::string hex(body.data() + i + 2, 4);
        const long u = std::strtol(hex.c_str(), &end, 16);
        return end == hex.c_str() + 4 ? u : -1;
    };
    for (std::size_t i = 0; i + 1 < body.size(); i++) {
        if (body[i] != '\\')
            continue;
        const long u = unit(i);
        if (u >= 0xD800 && u <= 0xDBFF && !(unit(i + 6) >= 0xDC00 && unit(i + 6) <= 0xDFFF)) {
            const char bytes[3] = {'\xED', static_cast<char>(0x80 | ((u >> 6) & 0x3F)), static_cast<char>(0x80 | (u & 0x3F))};
            body.erase(body.begin() + static_cast<std::ptrdiff_t>(i) + 3, body.begin() + static_cast<std::ptrdiff_t>(i) + 6);
            std::copy(bytes, bytes + 3, body.begin() + static_cast<std::ptrdiff_t>(i));
            i += 2;
        } else {
            i += u >= 0xD800 && u <= 0xDBFF ? 11 : 1;     // a pair, or any other escape
        }
    }
}

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
        keep_lone_high_surrogates(body);
        rapidjson::Document request;
        request.Parse<rapidjson::kParseFullPrecisionFlag>(body.data(), body.size());
        std::string answer;
        if (request.HasParseError() || !request.IsObject()) {
            answer = testee::reply("skipped", "request is not a JSON object");
        } else if (request.HasMember("quit")) {
            return 0;
        } else {
            try {
                const std::string package = testee::member(request, "package").GetString();
                const std::string type = package + "." + testee::member(request, "type").GetString();
                const std::string format = testee::member(testee::member(request, "input"), "format").GetString();
                const bool stream = format == "stream" || format == "final_stream";
                const auto& table = stream ? testee::stream_handlers() : testee::handlers();
                auto it = table.find(stream ? package : type);
                const bool measure = request.HasMember("measure") && request["measure"].IsTrue();
                const std::size_t before = heap::in_use;
                heap::peak = heap::in_use;
                const auto start = std::chrono::steady_clock::now();
                answer = it == table.end() ? testee::reply("skipped", (stream ? "package " + package : "type " + type) +
                                                                          " is not compiled in")
                                           : it->second(request);
                if (measure) {
                    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
                    answer.pop_back();          // the closing brace of the answer object
                    answer += ",\"measured\":{\"peak_bytes\":" + std::to_string(heap::peak - before) +
                              ",\"seconds\":" + std::to_string(seconds.count()) + "}}";
                }
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
