// Protobuf (Debian libprotobuf, proto3, optimize_for = SPEED). The message
// objects are reused across operations: Clear() keeps their allocations.
#include "graph.pb.h"
#include "trade.pb.h"

#include "../bench.h"

namespace bench {
namespace {

struct ProtobufTrade {
    static constexpr bool has_verify = false;  // parsing is the only check
    pb::trade::Account msg;
    std::string out;

    static void put(pb::trade::Balance* m, const dom::Balance& b) {
        m->set_currency(b.currency);
        m->set_amount(b.amount);
    }
    static void get(const pb::trade::Balance& m, dom::Balance& b) {
        b.currency.assign(m.currency());
        b.amount = m.amount();
    }

    void serialize(const dom::Account& a) {
        msg.Clear();
        msg.set_id(a.id);
        msg.set_name(a.name);
        msg.set_state(dom::u8(a.state));
        put(msg.mutable_wallet(), a.wallet);
        if (a.asset) put(msg.mutable_asset(), *a.asset);
        for (const dom::Order& o : a.orders) {
            pb::trade::Order* m = msg.add_orders();
            m->set_id(o.id);
            m->set_symbol(o.symbol);
            m->set_side(pb::trade::OrderSide(dom::u8(o.side)));
            m->set_type(pb::trade::OrderType(dom::u8(o.type)));
            m->set_price(o.price);
            m->set_volume(o.volume);
        }
        size_t n = msg.ByteSizeLong();
        out.resize(n);
        msg.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out.data()));
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(out.data()), out.size()}; }
    bool verify(const uint8_t*, size_t) { return false; }

    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        if (!msg.ParseFromArray(p, int(n))) return false;
        a.id = msg.id();
        a.name.assign(msg.name());
        a.state = dom::to_state(msg.state());
        get(msg.wallet(), a.wallet);
        if (msg.has_asset()) {
            if (!a.asset) a.asset.emplace();
            get(msg.asset(), *a.asset);
        } else {
            a.asset.reset();
        }
        a.orders.resize(size_t(msg.orders_size()));
        for (int i = 0; i < msg.orders_size(); ++i) {
            const pb::trade::Order& m = msg.orders(i);
            dom::Order& o = a.orders[size_t(i)];
            o.id = m.id();
            o.symbol.assign(m.symbol());
            o.side = dom::to_side(m.side());
            o.type = dom::to_type(m.type());
            o.price = m.price();
            o.volume = m.volume();
        }
        return true;
    }
};

struct ProtobufGraph {
    static constexpr bool has_verify = false;
    pb::graph::Graph msg;
    std::string out;
    dom::BfsScratch scratch;

    void serialize(const dom::Graph& g) {
        msg.Clear();
        msg.mutable_nodes()->Reserve(int(g.nodes.size()));
        for (const dom::Node& n : g.nodes) {
            pb::graph::Node* m = msg.add_nodes();
            m->set_id(n.id);
            m->set_name(n.name);
            m->set_value(n.value);
            m->mutable_out_edges()->Add(n.out_edges.begin(), n.out_edges.end());
        }
        msg.mutable_edges()->Reserve(int(g.edges.size()));
        for (const dom::Edge& e : g.edges) {
            pb::graph::Edge* m = msg.add_edges();
            m->set_source(e.source);
            m->set_target(e.target);
            m->set_weight(e.weight);
        }
        size_t n = msg.ByteSizeLong();
        out.resize(n);
        msg.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out.data()));
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(out.data()), out.size()}; }
    bool verify(const uint8_t*, size_t) { return false; }

    bool deserialize(const uint8_t* p, size_t n, dom::Graph& g) {
        if (!open(p, n)) return false;
        g.nodes.resize(size_t(msg.nodes_size()));
        for (int i = 0; i < msg.nodes_size(); ++i) {
            const pb::graph::Node& m = msg.nodes(i);
            dom::Node& d = g.nodes[size_t(i)];
            d.id = m.id();
            d.name.assign(m.name());
            d.value = m.value();
            d.out_edges.assign(m.out_edges().begin(), m.out_edges().end());
        }
        g.edges.resize(size_t(msg.edges_size()));
        for (int i = 0; i < msg.edges_size(); ++i) {
            const pb::graph::Edge& m = msg.edges(i);
            dom::Edge& d = g.edges[size_t(i)];
            d.source = m.source();
            d.target = m.target();
            d.weight = m.weight();
        }
        return true;
    }
    // Read view: the parsed message object.
    bool open(const uint8_t* p, size_t n) { return msg.ParseFromArray(p, int(n)); }
    int64_t traverse() {
        const int edges = msg.edges_size();
        return dom::bfs_sum(
            size_t(msg.nodes_size()), scratch, [&](int32_t v) { return msg.nodes(v).value(); },
            [&](int32_t v, auto&& visit) {
                for (int32_t e : msg.nodes(v).out_edges())
                    if (e >= 0 && e < edges) visit(msg.edges(e).target());
            });
    }
};

}  // namespace

void register_protobuf() {
    register_trade<ProtobufTrade>("protobuf", "Protobuf");
    register_graph<ProtobufGraph>("protobuf", "Protobuf");
}

}  // namespace bench
