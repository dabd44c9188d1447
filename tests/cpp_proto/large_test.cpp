// Messages larger than a thread's stack (issue 21 item 11): the generated
// Receivers read them into values on the heap (the Receiver put the message
// on the stack: a 12 MB one crashed it with a stack overflow), made at the
// first frame that verifies and reused by the next ones.

#include "large_final_protocol.h"
#include "large_protocol.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<uint8_t>;

template <class TBase>
struct Out : TBase {
    Bytes out;
    std::size_t onSend(const void* data, std::size_t size) override {
        out.insert(out.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        return size;
    }
};

template <class TBase>
struct In : TBase {
    std::vector<int64_t> sums;          // of each Wide received
    std::vector<const void*> addresses; // where each Wide was
    std::vector<std::string> errors;
    void onReceive(const ::large::Wide& v) override {
        sums.push_back(std::accumulate(v.values.begin(), v.values.end(), int64_t(0)));
        addresses.push_back(&v);
    }
    void onReceiveError(FBE::ReceiveError /*error*/, const std::string& reason) override { errors.push_back(reason); }
};

template <class TSender, class TReceiver>
std::unique_ptr<TReceiver> receives_large_messages() {
    auto wide = std::make_unique<::large::Wide>();
    std::iota(wide->values.begin(), wide->values.end(), 0);
    auto sender = std::make_unique<TSender>();
    sender->send(*wide);
    wide->values.fill(1);
    sender->send(*wide);
    ::large::Small small;
    sender->send(small);

    auto receiver = std::make_unique<TReceiver>();
    receiver->receive(sender->out.data(), sender->out.size());
    EXPECT_TRUE(receiver->errors.empty()) << receiver->errors.front();
    const int64_t n = int64_t(wide->values.size());
    EXPECT_EQ(receiver->sums, (std::vector<int64_t>{n * (n - 1) / 2, n}));
    EXPECT_EQ(receiver->addresses.front(), receiver->addresses.back()); // the value is reused
    return receiver;
}

TEST(LargeMessages, VersionedReceiverHoldsTheMessageOnTheHeap) {
    auto receiver = receives_large_messages<Out<FBE::large::Sender<>>, In<FBE::large::Receiver<>>>();
    // an older writer's body (root size 16, body offset 8; body size 8, type 1) asks for 12 MB of
    // defaults: the budget of its frame refuses it
    const Bytes older{16, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0};
    receiver->receive(older.data(), older.size());
    ASSERT_EQ(receiver->errors.size(), 1u);
    EXPECT_NE(receiver->errors[0].find("decode budget exceeded"), std::string::npos) << receiver->errors[0];
    // with a budget that pays for them, the defaults replace what the reused value held
    FBE::Limits limits;
    limits.budget_slack = 16 << 20;
    receiver->limits(limits);
    receiver->receive(older.data(), older.size());
    EXPECT_EQ(receiver->sums.size(), 3u);
    EXPECT_EQ(receiver->sums.back(), 0);
}

TEST(LargeMessages, FinalReceiverHoldsTheMessageOnTheHeap) {
    auto receiver = receives_large_messages<Out<FBE::large::FinalSender<>>, In<FBE::large::FinalReceiver<>>>();
    const Bytes short_frame{8, 0, 0, 0, 1, 0, 0, 0}; // root size 8, type 1: no array
    receiver->receive(short_frame.data(), short_frame.size());
    EXPECT_EQ(receiver->errors.size(), 1u);
    EXPECT_EQ(receiver->sums.size(), 2u);
}

} // namespace
