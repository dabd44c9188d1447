// Cap'n Proto (Debian libcapnp). Serialize builds the message in a reused,
// pre-zeroed first segment (re-zeroing only the words the previous message
// used) and writes the flat single-segment stream into a reused buffer.
// Deserialize reads through FlatArrayMessageReader (no copy of the bytes).
// Cap'n Proto has no separate verifier: accessors bounds-check lazily, so the
// "verify" row is Reader::totalSize(), which walks and checks every pointer.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <optional>

#include "graph.capnp.h"
#include "trade.capnp.h"

#include "../bench.h"

namespace bench {
namespace {

class ScratchBuilder {
public:
    explicit ScratchBuilder(size_t words) : seg_(words) {}

    template <class Root, class Fill>
    void build(Fill&& fill) {
        if (used_) std::memset(seg_.data(), 0, used_ * sizeof(capnp::word));
        used_ = 0;
        size_t total = 0;
        {
            capnp::MallocMessageBuilder b(kj::arrayPtr(seg_.data(), seg_.size()));
            fill(b.initRoot<Root>());
            auto segs = b.getSegmentsForOutput();
            for (auto s : segs) total += s.size();
            if (segs.size() > 0 && segs[0].begin() == seg_.data()) used_ = segs[0].size();
            size_t words = capnp::computeSerializedSizeInWords(segs);
            out_.resize(words);
            kj::ArrayOutputStream os(kj::arrayPtr(reinterpret_cast<kj::byte*>(out_.data()), words * sizeof(capnp::word)));
            capnp::writeMessage(os, segs);
            if (segs.size() > 1) grow_ = total + 64;
        }
        if (grow_) {  // next message fits in one segment
            if (used_) std::memset(seg_.data(), 0, used_ * sizeof(capnp::word));
            used_ = 0;
            seg_.assign(grow_, capnp::word());
            grow_ = 0;
        }
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(out_.data()), out_.size() * sizeof(capnp::word)}; }

private:
    std::vector<capnp::word> seg_;
    std::vector<capnp::word> out_;
    size_t used_ = 0;
    size_t grow_ = 0;
};

inline kj::ArrayPtr<const capnp::word> words(const uint8_t* p, size_t n) {
    return kj::arrayPtr(reinterpret_cast<const capnp::word*>(p), n / sizeof(capnp::word));
}

inline void text(std::string& s, capnp::Text::Reader t) { s.assign(t.begin(), t.size()); }
inline capnp::Text::Reader text(const std::string& s) { return capnp::Text::Reader(s.data(), s.size()); }

struct CapnpTrade {
    static constexpr bool has_verify = true;
    ScratchBuilder builder{1024};

    static void put(cp::trade::Balance::Builder m, const dom::Balance& b) {
        m.setCurrency(text(b.currency));
        m.setAmount(b.amount);
    }
    static void get(cp::trade::Balance::Reader m, dom::Balance& b) {
        text(b.currency, m.getCurrency());
        b.amount = m.getAmount();
    }

    void serialize(const dom::Account& a) {
        builder.build<cp::trade::Account>([&](cp::trade::Account::Builder m) {
            m.setId(a.id);
            m.setName(text(a.name));
            m.setState(dom::u8(a.state));
            put(m.initWallet(), a.wallet);
            if (a.asset) put(m.initAsset(), *a.asset);
            auto orders = m.initOrders(unsigned(a.orders.size()));
            for (unsigned i = 0; i < a.orders.size(); ++i) {
                const dom::Order& o = a.orders[i];
                auto x = orders[i];
                x.setId(o.id);
                x.setSymbol(text(o.symbol));
                x.setSide(cp::trade::OrderSide(dom::u8(o.side)));
                x.setType(cp::trade::OrderType(dom::u8(o.type)));
                x.setPrice(o.price);
                x.setVolume(o.volume);
            }
        });
    }
    Bytes bytes() const { return builder.bytes(); }

    bool verify(const uint8_t* p, size_t n) {
        try {
            capnp::FlatArrayMessageReader reader(words(p, n));
            auto size = reader.getRoot<cp::trade::Account>().totalSize();
            return size.wordCount > 0;
        } catch (const kj::Exception&) {
            return false;
        }
    }

    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        try {
            capnp::FlatArrayMessageReader reader(words(p, n));
            auto m = reader.getRoot<cp::trade::Account>();
            a.id = m.getId();
            text(a.name, m.getName());
            a.state = dom::to_state(m.getState());
            get(m.getWallet(), a.wallet);
            if (m.hasAsset()) {
                if (!a.asset) a.asset.emplace();
                get(m.getAsset(), *a.asset);
            } else {
                a.asset.reset();
            }
            auto orders = m.getOrders();
            a.orders.resize(orders.size());
            for (unsigned i = 0; i < orders.size(); ++i) {
                auto x = orders[i];
                dom::Order& o = a.orders[i];
                o.id = x.getId();
                text(o.symbol, x.getSymbol());
                o.side = dom::to_side(uint32_t(x.getSide()));
                o.type = dom::to_type(uint32_t(x.getType()));
                o.price = x.getPrice();
                o.volume = x.getVolume();
            }
            return true;
        } catch (const kj::Exception&) {
            return false;
        }
    }
};

struct CapnpGraph {
    static constexpr bool has_verify = true;
    ScratchBuilder builder{1 << 16};
    std::optional<capnp::FlatArrayMessageReader> reader;
    cp::graph::Graph::Reader root;
    dom::BfsScratch scratch;

    static capnp::ReaderOptions opts() {
        capnp::ReaderOptions o;
        o.traversalLimitInWords = uint64_t(1) << 62;  // traverse() reads the same reader many times
        return o;
    }

    void serialize(const dom::Graph& g) {
        builder.build<cp::graph::Graph>([&](cp::graph::Graph::Builder m) {
            auto nodes = m.initNodes(unsigned(g.nodes.size()));
            for (unsigned i = 0; i < g.nodes.size(); ++i) {
                const dom::Node& n = g.nodes[i];
                auto x = nodes[i];
                x.setId(n.id);
                x.setName(text(n.name));
                x.setValue(n.value);
                x.setOutEdges(kj::arrayPtr(n.out_edges.data(), n.out_edges.size()));
            }
            auto edges = m.initEdges(unsigned(g.edges.size()));
            for (unsigned i = 0; i < g.edges.size(); ++i) {
                const dom::Edge& e = g.edges[i];
                auto x = edges[i];
                x.setSource(e.source);
                x.setTarget(e.target);
                x.setWeight(e.weight);
            }
        });
    }
    Bytes bytes() const { return builder.bytes(); }

    bool verify(const uint8_t* p, size_t n) {
        try {
            capnp::FlatArrayMessageReader r(words(p, n), opts());
            return r.getRoot<cp::graph::Graph>().totalSize().wordCount > 0;
        } catch (const kj::Exception&) {
            return false;
        }
    }

    bool deserialize(const uint8_t* p, size_t n, dom::Graph& g) {
        try {
            capnp::FlatArrayMessageReader r(words(p, n), opts());
            auto m = r.getRoot<cp::graph::Graph>();
            auto nodes = m.getNodes();
            g.nodes.resize(nodes.size());
            for (unsigned i = 0; i < nodes.size(); ++i) {
                auto x = nodes[i];
                dom::Node& d = g.nodes[i];
                d.id = x.getId();
                text(d.name, x.getName());
                d.value = x.getValue();
                auto out = x.getOutEdges();
                d.out_edges.resize(out.size());
                for (unsigned k = 0; k < out.size(); ++k) d.out_edges[k] = out[k];
            }
            auto edges = m.getEdges();
            g.edges.resize(edges.size());
            for (unsigned i = 0; i < edges.size(); ++i) {
                auto x = edges[i];
                g.edges[i].source = x.getSource();
                g.edges[i].target = x.getTarget();
                g.edges[i].weight = x.getWeight();
            }
            return true;
        } catch (const kj::Exception&) {
            return false;
        }
    }

    // Read view: the message in place.
    bool open(const uint8_t* p, size_t n) {
        try {
            reader.emplace(words(p, n), opts());
            root = reader->getRoot<cp::graph::Graph>();
            return true;
        } catch (const kj::Exception&) {
            return false;
        }
    }
    int64_t traverse() {
        auto nodes = root.getNodes();
        auto edges = root.getEdges();
        return dom::bfs_sum(
            nodes.size(), scratch, [&](int32_t v) { return nodes[unsigned(v)].getValue(); },
            [&](int32_t v, auto&& visit) {
                for (int32_t e : nodes[unsigned(v)].getOutEdges())
                    if (e >= 0 && unsigned(e) < edges.size()) visit(edges[unsigned(e)].getTarget());
            });
    }
};

}  // namespace

void register_capnp() {
    register_trade<CapnpTrade>("capnp", "Cap'n Proto");
    register_graph<CapnpGraph>("capnp", "Cap'n Proto");
}

}  // namespace bench
