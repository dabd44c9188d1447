// msgpack-c (Debian libmsgpack-cxx-dev, header-only C++ API). Structs are
// packed as arrays of their fields by adaptor specializations (the domain
// types are not changed); packing reuses an sbuffer, unpacking reuses a zone.
#define MSGPACK_NO_BOOST 1
#include <msgpack.hpp>

#include "../bench.h"

namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
namespace adaptor {

template <>
struct pack<dom::Order> {
    template <class S>
    packer<S>& operator()(packer<S>& o, const dom::Order& v) const {
        o.pack_array(6);
        o.pack(v.id);
        o.pack(v.symbol);
        o.pack(dom::u8(v.side));
        o.pack(dom::u8(v.type));
        o.pack(v.price);
        o.pack(v.volume);
        return o;
    }
};
template <>
struct convert<dom::Order> {
    const msgpack::object& operator()(const msgpack::object& o, dom::Order& v) const {
        if (o.type != msgpack::type::ARRAY || o.via.array.size != 6) throw msgpack::type_error();
        const msgpack::object* f = o.via.array.ptr;
        f[0].convert(v.id);
        f[1].convert(v.symbol);
        v.side = dom::to_side(f[2].as<uint8_t>());
        v.type = dom::to_type(f[3].as<uint8_t>());
        f[4].convert(v.price);
        f[5].convert(v.volume);
        return o;
    }
};

template <>
struct pack<dom::Balance> {
    template <class S>
    packer<S>& operator()(packer<S>& o, const dom::Balance& v) const {
        o.pack_array(2);
        o.pack(v.currency);
        o.pack(v.amount);
        return o;
    }
};
template <>
struct convert<dom::Balance> {
    const msgpack::object& operator()(const msgpack::object& o, dom::Balance& v) const {
        if (o.type != msgpack::type::ARRAY || o.via.array.size != 2) throw msgpack::type_error();
        o.via.array.ptr[0].convert(v.currency);
        o.via.array.ptr[1].convert(v.amount);
        return o;
    }
};

template <>
struct pack<dom::Account> {
    template <class S>
    packer<S>& operator()(packer<S>& o, const dom::Account& v) const {
        o.pack_array(6);
        o.pack(v.id);
        o.pack(v.name);
        o.pack(dom::u8(v.state));
        o.pack(v.wallet);
        if (v.asset)
            o.pack(*v.asset);
        else
            o.pack_nil();
        o.pack_array(uint32_t(v.orders.size()));
        for (const dom::Order& x : v.orders) o.pack(x);
        return o;
    }
};
template <>
struct convert<dom::Account> {
    const msgpack::object& operator()(const msgpack::object& o, dom::Account& v) const {
        if (o.type != msgpack::type::ARRAY || o.via.array.size != 6) throw msgpack::type_error();
        const msgpack::object* f = o.via.array.ptr;
        f[0].convert(v.id);
        f[1].convert(v.name);
        v.state = dom::to_state(f[2].as<uint8_t>());
        f[3].convert(v.wallet);
        if (f[4].is_nil()) {
            v.asset.reset();
        } else {
            if (!v.asset) v.asset.emplace();
            f[4].convert(*v.asset);
        }
        if (f[5].type != msgpack::type::ARRAY) throw msgpack::type_error();
        const msgpack::object_array& arr = f[5].via.array;
        v.orders.resize(arr.size);
        for (uint32_t i = 0; i < arr.size; ++i) arr.ptr[i].convert(v.orders[i]);
        return o;
    }
};

}  // namespace adaptor
}  // MSGPACK_API_VERSION_NAMESPACE
}  // namespace msgpack

namespace bench {
namespace {

struct MsgpackTrade {
    static constexpr bool has_verify = false;
    msgpack::sbuffer out{1024};
    msgpack::zone zone;

    void serialize(const dom::Account& a) {
        out.clear();
        msgpack::pack(out, a);
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(out.data()), out.size()}; }
    bool verify(const uint8_t*, size_t) { return false; }

    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        try {
            zone.clear();
            std::size_t off = 0;
            msgpack::object obj = msgpack::unpack(zone, reinterpret_cast<const char*>(p), n, off);
            if (off != n) return false;
            obj.convert(a);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }
};

}  // namespace

void register_msgpack() { register_trade<MsgpackTrade>("msgpack", "msgpack-c"); }

}  // namespace bench
