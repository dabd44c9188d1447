// cereal binary archives (Debian libcereal-dev). cereal writes to a
// std::ostream and reads from a std::istream: a small streambuf appends to a
// reused std::string, another reads the message bytes in place. Archives are
// cheap objects made per operation, as cereal intends.
#include <cereal/archives/binary.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <istream>
#include <ostream>
#include <streambuf>

#include "../bench.h"

// cereal finds non-member serialize functions in the cereal namespace too,
// so the domain types need no change.
namespace cereal {
template <class Ar> void serialize(Ar& ar, dom::Order& o) { ar(o.id, o.symbol, o.side, o.type, o.price, o.volume); }
template <class Ar> void serialize(Ar& ar, dom::Balance& b) { ar(b.currency, b.amount); }
template <class Ar> void serialize(Ar& ar, dom::Account& a) { ar(a.id, a.name, a.state, a.wallet, a.asset, a.orders); }
template <class Ar> void serialize(Ar& ar, dom::Node& n) { ar(n.id, n.name, n.value, n.out_edges); }
template <class Ar> void serialize(Ar& ar, dom::Edge& e) { ar(e.source, e.target, e.weight); }
template <class Ar> void serialize(Ar& ar, dom::Graph& g) { ar(g.nodes, g.edges); }
}  // namespace cereal

namespace bench {
namespace {

class StringSink : public std::streambuf {
public:
    std::string data;

protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        data.append(s, size_t(n));
        return n;
    }
    int_type overflow(int_type c) override {
        if (c != traits_type::eof()) data.push_back(char(c));
        return traits_type::not_eof(c);
    }
};

class MemorySource : public std::streambuf {
public:
    void reset(const uint8_t* p, size_t n) {
        char* b = const_cast<char*>(reinterpret_cast<const char*>(p));  // read only
        setg(b, b, b + n);
    }
};

template <class T>
struct CerealCodec {
    static constexpr bool has_verify = false;
    StringSink sink;
    std::ostream os{&sink};
    MemorySource source;
    std::istream is{&source};
    T view;  // graph read view: the decoded object
    dom::BfsScratch scratch;

    void serialize(const T& v) {
        sink.data.clear();
        cereal::BinaryOutputArchive ar(os);
        ar(v);
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(sink.data.data()), sink.data.size()}; }
    bool verify(const uint8_t*, size_t) { return false; }

    bool deserialize(const uint8_t* p, size_t n, T& v) {
        try {
            source.reset(p, n);
            is.clear();
            cereal::BinaryInputArchive ar(is);
            ar(v);
            return true;
        } catch (const cereal::Exception&) {
            return false;
        }
    }
    bool open(const uint8_t* p, size_t n) { return deserialize(p, n, view); }
    int64_t traverse() {
        if constexpr (std::is_same_v<T, dom::Graph>)
            return dom::bfs_domain(view, scratch);
        else
            return 0;
    }
};

}  // namespace

void register_cereal() {
    register_trade<CerealCodec<dom::Account>>("cereal", "cereal (binary)");
    register_graph<CerealCodec<dom::Graph>>("cereal", "cereal (binary)");
}

}  // namespace bench
