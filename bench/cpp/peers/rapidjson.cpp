// RapidJSON (Debian rapidjson-dev): the JSON of FBE's mapping (docs/format.md
// section 8: field names as keys, enums and flags as numbers, null for an
// absent optional), written with a reused Writer/StringBuffer and parsed into
// a Document whose allocators live in reused buffers, then copied into the
// domain object. JSON has no verifier: parsing is the check.
#include "rapidjson_doc.h"

#include "../bench.h"

namespace bench {
namespace {

using rapidjson::StringBuffer;
using rapidjson::Writer;

struct RapidJsonTrade {
    static constexpr bool has_verify = false;
    StringBuffer sb;
    Writer<StringBuffer> w;
    JsonDoc doc;

    RapidJsonTrade() : w(sb) {}

    void put(const dom::Balance& b) {
        w.StartObject();
        w.Key("currency", 8);
        w.String(b.currency.data(), rapidjson::SizeType(b.currency.size()));
        w.Key("amount", 6);
        w.Double(b.amount);
        w.EndObject();
    }
    static bool get(const rapidjson::Value& v, dom::Balance& b) {
        if (!v.IsObject()) return false;
        auto c = v.FindMember("currency");
        auto m = v.FindMember("amount");
        if (c == v.MemberEnd() || !c->value.IsString() || m == v.MemberEnd() || !m->value.IsNumber()) return false;
        b.currency.assign(c->value.GetString(), c->value.GetStringLength());
        b.amount = m->value.GetDouble();
        return true;
    }

    void serialize(const dom::Account& a) {
        sb.Clear();
        w.Reset(sb);
        w.StartObject();
        w.Key("id", 2);
        w.Int(a.id);
        w.Key("name", 4);
        w.String(a.name.data(), rapidjson::SizeType(a.name.size()));
        w.Key("state", 5);
        w.Uint(dom::u8(a.state));
        w.Key("wallet", 6);
        put(a.wallet);
        w.Key("asset", 5);
        if (a.asset)
            put(*a.asset);
        else
            w.Null();
        w.Key("orders", 6);
        w.StartArray();
        for (const dom::Order& o : a.orders) {
            w.StartObject();
            w.Key("id", 2);
            w.Int(o.id);
            w.Key("symbol", 6);
            w.String(o.symbol.data(), rapidjson::SizeType(o.symbol.size()));
            w.Key("side", 4);
            w.Uint(dom::u8(o.side));
            w.Key("type", 4);
            w.Uint(dom::u8(o.type));
            w.Key("price", 5);
            w.Double(o.price);
            w.Key("volume", 6);
            w.Double(o.volume);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(sb.GetString()), sb.GetSize()}; }
    bool verify(const uint8_t*, size_t) { return false; }

    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        JsonDocument& d = doc.parse(p, n);
        if (d.HasParseError() || !d.IsObject()) return false;
        auto id = d.FindMember("id");
        auto name = d.FindMember("name");
        auto state = d.FindMember("state");
        auto wallet = d.FindMember("wallet");
        auto asset = d.FindMember("asset");
        auto orders = d.FindMember("orders");
        auto end = d.MemberEnd();
        if (id == end || !id->value.IsInt() || name == end || !name->value.IsString() || state == end ||
            !state->value.IsUint() || wallet == end || asset == end || orders == end || !orders->value.IsArray())
            return false;
        a.id = id->value.GetInt();
        a.name.assign(name->value.GetString(), name->value.GetStringLength());
        a.state = dom::to_state(state->value.GetUint());
        if (!get(wallet->value, a.wallet)) return false;
        if (asset->value.IsNull()) {
            a.asset.reset();
        } else {
            if (!a.asset) a.asset.emplace();
            if (!get(asset->value, *a.asset)) return false;
        }
        const auto& arr = orders->value.GetArray();
        a.orders.resize(arr.Size());
        for (rapidjson::SizeType i = 0; i < arr.Size(); ++i) {
            const rapidjson::Value& v = arr[i];
            if (!v.IsObject()) return false;
            dom::Order& o = a.orders[i];
            auto oid = v.FindMember("id");
            auto sym = v.FindMember("symbol");
            auto side = v.FindMember("side");
            auto type = v.FindMember("type");
            auto price = v.FindMember("price");
            auto volume = v.FindMember("volume");
            auto oe = v.MemberEnd();
            if (oid == oe || !oid->value.IsInt() || sym == oe || !sym->value.IsString() || side == oe ||
                !side->value.IsUint() || type == oe || !type->value.IsUint() || price == oe ||
                !price->value.IsNumber() || volume == oe || !volume->value.IsNumber())
                return false;
            o.id = oid->value.GetInt();
            o.symbol.assign(sym->value.GetString(), sym->value.GetStringLength());
            o.side = dom::to_side(side->value.GetUint());
            o.type = dom::to_type(type->value.GetUint());
            o.price = price->value.GetDouble();
            o.volume = volume->value.GetDouble();
        }
        return true;
    }
};

}  // namespace

void register_rapidjson() { register_trade<RapidJsonTrade>("rapidjson", "RapidJSON"); }

}  // namespace bench
