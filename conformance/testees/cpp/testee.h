// The C++ conformance testee (conformance/testee_protocol.md): shared
// declarations. Included by the generated values.cpp before the struct
// overloads, which must be declared before templates.h instantiates.
#pragma once

#include <fbe/fbe.h>
#include <fbe/json.h>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <map>
#include <stdexcept>
#include <string>

namespace testee {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

//! A value description that does not fit the type (a bug of the runner or the testee).
struct BadValue : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! A value description that fits its type but holds what the C++ types cannot (a decimal beyond 96
//! bits): refused as a writer refuses it, naming where it is (testee_protocol.md).
struct Unheld : std::runtime_error {
    using std::runtime_error::runtime_error;
    std::string path;                   // ".priceVector[1]": built on the way up (within)
};

//! Runs read(); an Unheld it throws gets `step` (".price", "[1]") in front of its path.
template <typename Read>
void within(const std::string& step, Read&& read)
{
    try {
        read();
    } catch (Unheld& e) {
        e.path.insert(0, step);
        throw;
    }
}

//! within() of an element: the step "[i]".
template <typename Read>
void within_index(std::size_t i, Read&& read)
{
    within("[" + std::to_string(i) + "]", read);
}

//! Answers one request for a type; returns the response JSON.
using Handler = std::string (*)(const rapidjson::Value& request);

inline const rapidjson::Value& member(const rapidjson::Value& v, const char* name)
{
    if (!v.IsObject() || !v.HasMember(name))
        throw BadValue(std::string("value description lacks member ") + name);
    return v[name];
}

//! v, which must not be null: null where the type has none is what no C++ value holds, refused as a
//! writer refuses what it cannot write, naming the field (testee_protocol.md, "Writer errors").
inline const rapidjson::Value& held(const rapidjson::Value& v, const char* what)
{
    if (v.IsNull())
        throw Unheld(std::string("expected ") + what + ", got null");
    return v;
}

inline void check_type(const rapidjson::Value& v, const char* type)
{
    held(v, type);
    const rapidjson::Value& t = member(v, "@type");
    if (!t.IsString() || std::string(t.GetString()) != type)
        throw BadValue(std::string("expected a value of ") + type);
}

const std::map<std::string, Handler>& handlers();

//! Answers a request whose input is a protocol stream, per package.
const std::map<std::string, Handler>& stream_handlers();

} // namespace testee
