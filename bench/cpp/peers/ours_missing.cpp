// Our rows while the generated C++ code cannot be built yet: they are listed
// as "not available yet" with the reason CMake found (no numbers are made up).
#include "../bench.h"

#ifndef FBE_BENCH_OURS_REASON
#define FBE_BENCH_OURS_REASON "fbec --cpp did not produce code that compiles"
#endif

namespace bench {

void register_ours() {
    const std::string why = std::string("not available yet: ") + FBE_BENCH_OURS_REASON;
    for (auto [id, label] : {std::pair{"ours", "FBE (ours)"}, {"ours-final", "FBE final (ours)"},
                             {"ours-json", "FBE JSON (ours)"}})
        report_status("trade", id, label, why);
    for (auto [id, label] : {std::pair{"ours", "FBE (ours)"}, {"ours-final", "FBE final (ours)"}})
        report_status("graph", id, label, why);
}

}  // namespace bench
