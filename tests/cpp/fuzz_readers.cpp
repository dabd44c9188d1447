// libFuzzer target: every reader (versioned and final model of every golden
// vector's type) over the input. Built with clang when FBE_BUILD_FUZZERS is
// ON (tests/cpp/CMakeLists.txt); run e.g.
//   build/fuzz/tests/cpp/fbe_fuzz_readers -max_total_time=60 $SHARED/vectors
// The GoogleTest suite runs the same readers over random mutations
// (Hostile.RandomMutationsOfEveryVector) with any compiler.

#include "conformance.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    for (const auto& v : vector_readers()) {
        for (Reader reader : {v.versioned, v.final}) {
            const ReadResult result = reader(data, size);
            // A buffer that verify() accepts must deserialize cleanly.
            if (result.verified && (result.deserialized == 0 || !result.read_error.empty()))
                std::abort();
        }
    }
    return 0;
}
