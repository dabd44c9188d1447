// Our rows: the code fbec generates at build time from schemas/trade.fbe and
// schemas/graph.fbe (never committed), on the header-only runtime in
// runtime/cpp/include. The generated types are the domain types (domain.h),
// so deserialize writes straight into the domain object.
#include "graph_final_models.h"
#include "graph_models.h"
#include "proto_final_models.h"
#include "proto_models.h"
#if FBE_BENCH_OURS_JSON
#include "proto_json.h"
#include "rapidjson_doc.h"
#endif

#include "../bench.h"

namespace bench {
namespace {

template <template <class> class Model, class T>
struct Ours {
    static constexpr bool has_verify = true;
    Model<FBE::WriteBuffer> writer;
    Model<FBE::ReadBuffer> reader;
    T view;  // graph read view: the decoded object
    dom::BfsScratch scratch;

    void serialize(const T& v) {
        writer.reset();
        writer.serialize(v);
    }
    Bytes bytes() const {
        return {reinterpret_cast<const uint8_t*>(writer.buffer().data()), writer.buffer().size()};
    }
    bool verify(const uint8_t* p, size_t n) {
        reader.attach(p, n);
        return reader.verify();
    }
    bool deserialize(const uint8_t* p, size_t n, T& v) {
        reader.attach(p, n);
        return reader.deserialize(v) > 0;
    }
    bool open(const uint8_t* p, size_t n) { return deserialize(p, n, view); }
    int64_t traverse() {
        if constexpr (std::is_same_v<T, dom::Graph>)
            return dom::bfs_domain(view, scratch);
        else
            return 0;
    }
};

template <class W> using AccountModel = FBE::proto::AccountModel<W>;
template <class W> using AccountFinalModel = FBE::proto::AccountFinalModel<W>;
template <class W> using GraphModel = FBE::graph::GraphModel<W>;
template <class W> using GraphFinalModel = FBE::graph::GraphFinalModel<W>;

// The trade model written and read the CppSerialization benchmark's way,
// the original's (docs/cpp.md "Field models"): the domain object goes to
// and comes from the field models field by field, in the order of the
// fields, so the bytes are serialize()'s.
template <class TBuffer>
void put(FBE::FieldModel<TBuffer, dom::Balance>& model, const dom::Balance& balance) {
    const std::size_t begin = model.set_begin();
    model.currency.set(balance.currency);
    model.amount.set(balance.amount);
    model.set_end(begin);
}

template <class TBuffer>
void put(FBE::FieldModel<TBuffer, dom::Account>& model, const dom::Account& account) {
    const std::size_t begin = model.set_begin();
    model.id.set(account.id);
    model.name.set(account.name);
    model.state.set(account.state);
    put(model.wallet, account.wallet);
    const std::size_t asset = model.asset.set_begin(account.asset.has_value());
    if (account.asset)
        put(model.asset.value, *account.asset);
    model.asset.set_end(asset);
    auto order = model.orders.resize(account.orders.size());
    for (const dom::Order& o : account.orders) {
        const std::size_t order_begin = order.set_begin();
        order.id.set(o.id);
        order.symbol.set(o.symbol);
        order.side.set(o.side);
        order.type.set(o.type);
        order.price.set(o.price);
        order.volume.set(o.volume);
        order.set_end(order_begin);
        order.fbe_shift(order.fbe_size());
    }
    model.set_end(begin);
}

template <class TBuffer>
bool get(const FBE::FieldModel<TBuffer, dom::Balance>& model, dom::Balance& balance) {
    const std::size_t begin = model.get_begin();
    if (begin == 0) return false;
    model.currency.get(balance.currency);
    model.amount.get(balance.amount);
    model.get_end(begin);
    return true;
}

template <class TBuffer>
bool get(const FBE::FieldModel<TBuffer, dom::Account>& model, dom::Account& account) {
    const std::size_t begin = model.get_begin();
    if (begin == 0) return false;
    model.id.get(account.id);
    model.name.get(account.name);
    model.state.get(account.state);
    bool ok = get(model.wallet, account.wallet);
    if (model.asset.has_value()) {
        const std::size_t asset = model.asset.get_begin();
        if (!account.asset) account.asset.emplace();
        ok = get(model.asset.value, *account.asset) && ok;
        model.asset.get_end(asset);
    } else {
        account.asset.reset();
    }
    account.orders.resize(model.orders.size());
    std::size_t i = 0;
    for (dom::Order& o : account.orders) {
        auto order = model.orders[i++];
        const std::size_t order_begin = order.get_begin();
        ok = order_begin != 0 && ok;
        order.id.get(o.id);
        order.symbol.get(o.symbol);
        order.side.get(o.side);
        order.type.get(o.type);
        order.price.get(o.price);
        order.volume.get(o.volume);
        order.get_end(order_begin);
    }
    model.get_end(begin);
    return ok;
}

struct OursFields : Ours<AccountModel, dom::Account> {
    void serialize(const dom::Account& a) {
        writer.reset();
        const std::size_t begin = writer.create_begin();
        put(writer.model, a);
        writer.create_end(begin);
    }
    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        reader.attach(p, n);
        return get(reader.model, a);
    }
};

// The BFS of the view rows over a root's views (View or VerifiedView):
// nodes[v].value_(), the out_edges items and edges[e].target(). Out of line,
// as FlatBuffers' traverse() is: inlined into the benchmark's loop, three of
// the verified views' positions no longer fit in registers and are reloaded
// on every edge (1.35 M instructions instead of 1.17 M). The lambdas hold
// copies of the views (values), and the edge loop a local one, which the
// compiler keeps in registers (through a reference, each store to the BFS's
// seen bytes would make it reload them).
template <class Root>
[[gnu::noinline]] int64_t traverse_views(const Root& root, dom::BfsScratch& scratch) {
    const auto nodes = root.nodes();
    const auto edges = root.edges();
    return dom::bfs_sum(
        nodes.size(), scratch, [nodes](int32_t v) { return nodes[std::size_t(v)].value_(); },
        [nodes, edges](int32_t v, auto&& visit) {
            const auto es = edges;
            for (int32_t e : nodes[std::size_t(v)].out_edges())
                if (e >= 0 && size_t(e) < es.size()) visit(es[std::size_t(e)].target());
        });
}

// The graph read in place through the views (docs/cpp.md "Views"): open()
// finds the root's Graph body; traverse() reads nodes[v].value_(), the
// out_edges items and edges[e].target(), nothing materialized. Every view
// checks its bytes against the root when it is made, so this needs no
// verify() to be safe (FlatBuffers' GetRoot does); the verify row is the
// versioned row's.
struct OursViews : Ours<GraphModel, dom::Graph> {
    FBE::View<graph::Graph> root;

    bool open(const uint8_t* p, size_t n) {
        root = FBE::view<graph::Graph>(p, n);
        return root.has_value();
    }
    int64_t traverse() { return traverse_views(root, scratch); }
};

// The graph read in place through verified views (docs/cpp.md "Verified
// views"): verify() checks the root once (FBE::verified_view, the verify
// column) and open() takes the view it made; the views then read without
// checks, as FlatBuffers' accessors read a buffer its Verifier accepted
// (the benchmarks verify once before timing open(): opens_verified). The
// traversal is the views row's.
struct OursVerifiedViews : Ours<GraphModel, dom::Graph> {
    static constexpr bool opens_verified = true;
    FBE::VerifiedView<graph::Graph> verified, root;
    Bytes verified_bytes;

    bool verify(const uint8_t* p, size_t n) {
        verified = FBE::verified_view<graph::Graph>(p, n);
        verified_bytes = {p, n};
        return verified.has_value();
    }
    bool open(const uint8_t* p, size_t n) {
        if (p != verified_bytes.data || n != verified_bytes.size) verify(p, n);
        root = verified;
        return root.has_value();
    }
    int64_t traverse() { return traverse_views(root, scratch); }
};

#if FBE_BENCH_OURS_JSON
// Our JSON: the generated FBE::JSON::to_json / from_json over RapidJSON,
// with the same reused writer and pooled document as the RapidJSON row.
struct OursJson {
    static constexpr bool has_verify = false;
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w{sb};
    JsonDoc doc;

    void serialize(const dom::Account& a) {
        sb.Clear();
        w.Reset(sb);
        FBE::JSON::to_json(w, a);
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(sb.GetString()), sb.GetSize()}; }
    bool verify(const uint8_t*, size_t) { return false; }
    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        auto& d = doc.parse(p, n);
        if (d.HasParseError()) return false;
        return FBE::JSON::from_json(d, a);
    }
};
#endif

}  // namespace

void register_ours() {
    register_trade<Ours<AccountModel, dom::Account>>("ours", "FBE (ours)");
    register_trade<Ours<AccountFinalModel, dom::Account>>("ours-final", "FBE final (ours)");
    register_trade<OursFields>("ours-fields", "FBE field models (ours)");
#if FBE_BENCH_OURS_JSON
    register_trade<OursJson>("ours-json", "FBE JSON (ours)");
#else
    report_status("trade", "ours-json", "FBE JSON (ours)", "not available yet: " FBE_BENCH_OURS_JSON_REASON);
#endif
    register_graph<Ours<GraphModel, dom::Graph>>("ours", "FBE (ours)");
    register_graph<Ours<GraphFinalModel, dom::Graph>>("ours-final", "FBE final (ours)");
    register_graph<OursViews>("ours-views", "FBE views (ours)");
    register_graph<OursVerifiedViews>("ours-verified-views", "FBE verified views (ours)");
}

}  // namespace bench
