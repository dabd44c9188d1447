// FlatBuffers (Debian libflatbuffers 2.x). The FlatBufferBuilder is reused
// (Clear() keeps its memory); verify is the generated Verifier; deserialize
// reads the buffer in place (GetRoot, no verification) into the domain object.
#include "graph_generated.h"
#include "trade_generated.h"

#include "../bench.h"

namespace bench {
namespace {

inline void str(std::string& s, const flatbuffers::String* t) {
    if (t)
        s.assign(t->data(), t->size());
    else
        s.clear();
}

struct FlatBuffersTrade {
    static constexpr bool has_verify = true;
    flatbuffers::FlatBufferBuilder fbb{1024};
    std::vector<flatbuffers::Offset<fb::trade::Order>> orders;

    flatbuffers::Offset<fb::trade::Balance> put(const dom::Balance& b) {
        auto c = fbb.CreateString(b.currency);
        return fb::trade::CreateBalance(fbb, c, b.amount);
    }
    static void get(const fb::trade::Balance* m, dom::Balance& b) {
        str(b.currency, m->currency());
        b.amount = m->amount();
    }

    void serialize(const dom::Account& a) {
        fbb.Clear();
        orders.clear();
        for (const dom::Order& o : a.orders) {
            auto sym = fbb.CreateString(o.symbol);
            orders.push_back(fb::trade::CreateOrder(fbb, o.id, sym, fb::trade::OrderSide(dom::u8(o.side)),
                                                    fb::trade::OrderType(dom::u8(o.type)), o.price, o.volume));
        }
        auto ov = fbb.CreateVector(orders);
        auto name = fbb.CreateString(a.name);
        auto wallet = put(a.wallet);
        flatbuffers::Offset<fb::trade::Balance> asset;
        if (a.asset) asset = put(*a.asset);
        fbb.Finish(fb::trade::CreateAccount(fbb, a.id, name, dom::u8(a.state), wallet, asset, ov));
    }
    Bytes bytes() const { return {fbb.GetBufferPointer(), fbb.GetSize()}; }

    bool verify(const uint8_t* p, size_t n) {
        flatbuffers::Verifier v(p, n);
        return fb::trade::VerifyAccountBuffer(v);
    }

    bool deserialize(const uint8_t* p, size_t, dom::Account& a) {
        const fb::trade::Account* m = fb::trade::GetAccount(p);
        a.id = m->id();
        str(a.name, m->name());
        a.state = dom::to_state(m->state());
        if (m->wallet())
            get(m->wallet(), a.wallet);
        else
            a.wallet = dom::Balance();
        if (m->asset()) {
            if (!a.asset) a.asset.emplace();
            get(m->asset(), *a.asset);
        } else {
            a.asset.reset();
        }
        auto* orders = m->orders();
        size_t count = orders ? orders->size() : 0;
        a.orders.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const fb::trade::Order* x = orders->Get(flatbuffers::uoffset_t(i));
            dom::Order& o = a.orders[i];
            o.id = x->id();
            str(o.symbol, x->symbol());
            o.side = dom::to_side(uint32_t(x->side()));
            o.type = dom::to_type(uint32_t(x->type()));
            o.price = x->price();
            o.volume = x->volume();
        }
        return true;
    }
};

struct FlatBuffersGraph {
    static constexpr bool has_verify = true;
    static constexpr bool opens_verified = true;  // GetRoot reads what the Verifier accepted
    flatbuffers::FlatBufferBuilder fbb{1 << 20};
    std::vector<flatbuffers::Offset<fb::graph::Node>> nodes;
    const fb::graph::Graph* root = nullptr;
    dom::BfsScratch scratch;

    void serialize(const dom::Graph& g) {
        fbb.Clear();
        nodes.clear();
        for (const dom::Node& n : g.nodes) {
            auto name = fbb.CreateString(n.name);
            auto out = fbb.CreateVector(n.out_edges);
            nodes.push_back(fb::graph::CreateNode(fbb, n.id, name, n.value, out));
        }
        auto nv = fbb.CreateVector(nodes);
        fb::graph::Edge* dst = nullptr;
        auto ev = fbb.CreateUninitializedVectorOfStructs<fb::graph::Edge>(g.edges.size(), &dst);
        for (size_t i = 0; i < g.edges.size(); ++i)
            dst[i] = fb::graph::Edge(g.edges[i].source, g.edges[i].target, g.edges[i].weight);
        fbb.Finish(fb::graph::CreateGraph(fbb, nv, ev));
    }
    Bytes bytes() const { return {fbb.GetBufferPointer(), fbb.GetSize()}; }

    bool verify(const uint8_t* p, size_t n) {
        flatbuffers::Verifier v(p, n, 64, 10000000);
        return fb::graph::VerifyGraphBuffer(v);
    }

    bool deserialize(const uint8_t* p, size_t, dom::Graph& g) {
        const fb::graph::Graph* m = fb::graph::GetGraph(p);
        auto* nv = m->nodes();
        size_t nn = nv ? nv->size() : 0;
        g.nodes.resize(nn);
        for (size_t i = 0; i < nn; ++i) {
            const fb::graph::Node* x = nv->Get(flatbuffers::uoffset_t(i));
            dom::Node& d = g.nodes[i];
            d.id = x->id();
            str(d.name, x->name());
            d.value = x->value();
            auto* out = x->out_edges();
            if (out)
                d.out_edges.assign(out->begin(), out->end());
            else
                d.out_edges.clear();
        }
        auto* ev = m->edges();
        size_t ne = ev ? ev->size() : 0;
        g.edges.resize(ne);
        for (size_t i = 0; i < ne; ++i) {
            const fb::graph::Edge* x = ev->Get(flatbuffers::uoffset_t(i));
            g.edges[i].source = x->source();
            g.edges[i].target = x->target();
            g.edges[i].weight = x->weight();
        }
        return true;
    }

    // Read view: the buffer in place.
    bool open(const uint8_t* p, size_t) {
        root = fb::graph::GetGraph(p);
        return root != nullptr;
    }
    int64_t traverse() {
        auto* nv = root->nodes();
        auto* ev = root->edges();
        size_t ne = ev ? ev->size() : 0;
        return dom::bfs_sum(
            nv ? nv->size() : 0, scratch, [&](int32_t v) { return nv->Get(flatbuffers::uoffset_t(v))->value(); },
            [&](int32_t v, auto&& visit) {
                auto* out = nv->Get(flatbuffers::uoffset_t(v))->out_edges();
                if (!out) return;
                for (int32_t e : *out)
                    if (e >= 0 && size_t(e) < ne) visit(ev->Get(flatbuffers::uoffset_t(e))->target());
            });
    }
};

}  // namespace

void register_flatbuffers() {
    register_trade<FlatBuffersTrade>("flatbuffers", "FlatBuffers");
    register_graph<FlatBuffersGraph>("flatbuffers", "FlatBuffers");
}

}  // namespace bench
