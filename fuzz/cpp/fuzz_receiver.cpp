// libFuzzer target: protocol receivers fed arbitrary streams in arbitrary
// chunks. The first byte picks versioned/final and the chunk size.
#include "proto_protocol.h"
#include "proto_final_protocol.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

class Versioned : public FBE::proto::Receiver<FBE::WriteBuffer> {};
class Final : public FBE::proto::FinalReceiver<FBE::WriteBuffer> {};

template <typename R>
void feed(const uint8_t* data, std::size_t size, std::size_t chunk)
{
    R receiver;
    receiver.max_frame_size(1 << 16);
    for (std::size_t i = 0; i < size; i += chunk)
        receiver.receive(data + i, std::min(chunk, size - i));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t selector = data[0];
    const std::size_t chunk = 1 + (selector >> 1);
    if (selector & 1)
        feed<Final>(data + 1, size - 1, chunk);
    else
        feed<Versioned>(data + 1, size - 1, chunk);
    return 0;
}
