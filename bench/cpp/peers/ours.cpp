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
#if FBE_BENCH_OURS_JSON
    register_trade<OursJson>("ours-json", "FBE JSON (ours)");
#else
    report_status("trade", "ours-json", "FBE JSON (ours)", "not available yet: " FBE_BENCH_OURS_JSON_REASON);
#endif
    register_graph<Ours<GraphModel, dom::Graph>>("ours", "FBE (ours)");
    register_graph<Ours<GraphFinalModel, dom::Graph>>("ours-final", "FBE final (ours)");
}

}  // namespace bench
