// Protocol: sender buffering (docs/format.md 7.3), receiver reassembly and
// robustness (bad sizes, bad headers, unknown types, bodies failing verify,
// the maximum frame size), logging, Proxy, imports; versioned and final.

#include "rpcext_final_protocol.h"
#include "rpcext_protocol.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<uint8_t>;

template <class TBase>
struct Out : TBase {
    Bytes out;
    std::size_t accept = SIZE_MAX; // bytes onSend takes per call
    std::vector<std::string> log;
    std::size_t onSend(const void* data, std::size_t size) override {
        const std::size_t n = std::min(size, accept);
        out.insert(out.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + n);
        return n;
    }
    void onSendLog(const std::string& message) const override { const_cast<Out*>(this)->log.push_back(message); }
};

template <class TBase>
struct In : TBase {
    using TBase::onReceive; // the overloads of other packages' types stay callable
    std::vector<std::string> received;
    std::vector<std::pair<FBE::ReceiveError, std::string>> errors;
    std::vector<std::string> log;
    void onReceive(const ::rpc::Ping& v) override { received.push_back(v.string()); }
    void onReceive(const ::rpc::Pong& v) override { received.push_back(v.string()); }
    void onReceive(const ::rpc::PlaceOrder& v) override { received.push_back(v.string()); }
    void onReceive(const ::rpc::Heartbeat& v) override { received.push_back(v.string()); }
    void onReceive(const ::rpcext::ExtPing& v) override { received.push_back(v.string()); }
    void onReceiveError(FBE::ReceiveError error, const std::string& reason) override { errors.emplace_back(error, reason); }
    void onReceiveLog(const std::string& message) const override { const_cast<In*>(this)->log.push_back(message); }
};

using VSender = Out<FBE::rpcext::Sender<>>;
using FSender = Out<FBE::rpcext::FinalSender<>>;
using VReceiver = In<FBE::rpcext::Receiver<>>;
using FReceiver = In<FBE::rpcext::FinalReceiver<>>;

::rpc::Ping ping(int64_t sequence, std::string payload = "ping") {
    ::rpc::Ping p;
    char id[40];
    std::snprintf(id, sizeof(id), "00000000-0000-4000-8000-%012llx", static_cast<unsigned long long>(sequence));
    p.id = FBE::uuid_t(id);
    p.sequence = sequence;
    p.payload = std::move(payload);
    return p;
}

template <class TSender>
Bytes sample_stream(std::vector<std::string>* texts = nullptr) {
    TSender s;
    ::rpc::Heartbeat hb;
    hb.time = 42;
    ::rpcext::ExtPing ext;
    ext.id = FBE::uuid_t("00000000-0000-4000-8000-0000000000ee");
    ext.payload = "ext";
    s.send(ping(1));
    s.send(hb);
    s.send(ext); // own message of the importing package
    s.send(ping(2, std::string(1000, 'x')));
    if (texts)
        *texts = {ping(1).string(), hb.string(), ext.string(), ping(2, std::string(1000, 'x')).string()};
    return s.out;
}

template <typename T>
class Both : public ::testing::Test {};
struct Versioned {
    using Sender = VSender;
    using Receiver = VReceiver;
    static constexpr std::size_t kMin = 16;
};
struct Final {
    using Sender = FSender;
    using Receiver = FReceiver;
    static constexpr std::size_t kMin = 8;
};
using Kinds = ::testing::Types<Versioned, Final>;
TYPED_TEST_SUITE(Both, Kinds);

TYPED_TEST(Both, SendAndReceiveImportedAndOwnMessages) {
    std::vector<std::string> texts;
    const Bytes stream = sample_stream<typename TypeParam::Sender>(&texts);
    typename TypeParam::Receiver r;
    r.receive(stream);
    EXPECT_EQ(r.received, texts);
    EXPECT_TRUE(r.errors.empty());
    // Ids are the same (rpc.Pong and rpcext.ExtRejected...): ids are per package, own first.
    EXPECT_EQ(r.received_messages(), 4u);
}

TYPED_TEST(Both, RandomFragmentation) {
    std::vector<std::string> texts;
    const Bytes stream = sample_stream<typename TypeParam::Sender>(&texts);
    std::mt19937 random(7);
    for (int round = 0; round < 300; ++round) {
        typename TypeParam::Receiver r;
        std::size_t at = 0;
        while (at < stream.size()) {
            const std::size_t n =
                std::min(std::uniform_int_distribution<std::size_t>(1, round % 2 ? 7 : 300)(random), stream.size() - at);
            Bytes chunk(stream.begin() + static_cast<std::ptrdiff_t>(at), stream.begin() + static_cast<std::ptrdiff_t>(at + n));
            r.receive(chunk.data(), chunk.size());
            at += n;
        }
        ASSERT_EQ(r.received, texts) << "round " << round;
        ASSERT_TRUE(r.buffer().empty());
    }
}

TYPED_TEST(Both, SenderQueuesWhatTheTransportDidNotTake) {
    typename TypeParam::Sender whole;
    whole.send(ping(1));
    whole.send(ping(2));
    whole.send(ping(3));

    typename TypeParam::Sender s;
    s.accept = 0; // the transport is busy
    EXPECT_EQ(s.send(ping(1)), 0u);
    EXPECT_EQ(s.send(ping(2)), 0u);
    EXPECT_EQ(s.buffer().size(), whole.out.size() * 2 / 3);
    s.accept = 5; // takes 5 bytes per call, the rest stays queued
    EXPECT_EQ(s.send(ping(3)), 5u);
    EXPECT_EQ(s.buffer().size(), whole.out.size() - 5);
    s.accept = SIZE_MAX;
    EXPECT_EQ(s.flush(), whole.out.size() - 5);
    EXPECT_TRUE(s.buffer().empty());
    EXPECT_EQ(s.out, whole.out);
    EXPECT_EQ(s.sent_messages(), 3u);
}

TYPED_TEST(Both, LoggingOnBothSides) {
    typename TypeParam::Sender s;
    s.logging(true);
    s.send(ping(9, "log"));
    ASSERT_EQ(s.log.size(), 1u);
    EXPECT_EQ(s.log[0], ping(9, "log").string());
    EXPECT_NE(s.log[0].find("Ping(id=\""), std::string::npos);
    typename TypeParam::Receiver r;
    r.logging(true);
    r.receive(s.out);
    EXPECT_EQ(r.log, s.log);
    // Off by default.
    typename TypeParam::Sender quiet;
    quiet.send(ping(1));
    EXPECT_TRUE(quiet.log.empty());
}

TYPED_TEST(Both, FrameSizeBelowTheMinimumIsReportedAndTheStreamDropped) {
    typename TypeParam::Sender s;
    s.send(ping(1));
    Bytes stream = s.out;
    const Bytes bad = {static_cast<uint8_t>(TypeParam::kMin - 1), 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    stream.insert(stream.end(), bad.begin(), bad.end());
    stream.insert(stream.end(), s.out.begin(), s.out.end());
    for (std::size_t chunk : {stream.size(), std::size_t(1), std::size_t(3)}) {
        typename TypeParam::Receiver r;
        for (std::size_t at = 0; at < stream.size(); at += chunk)
            r.receive(stream.data() + at, std::min(chunk, stream.size() - at));
        ASSERT_EQ(r.received.size(), 1u);
        ASSERT_EQ(r.errors.size(), 1u);
        EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::FrameTooSmall);
        EXPECT_NE(r.errors[0].second.find("below the minimum"), std::string::npos) << r.errors[0].second;
        EXPECT_TRUE(r.broken());
        // reset() recovers.
        r.reset();
        r.receive(s.out);
        EXPECT_EQ(r.received.size(), 2u);
        EXPECT_FALSE(r.broken());
    }
}

TYPED_TEST(Both, FrameAboveTheMaximumIsSkippedWithoutAllocating) {
    typename TypeParam::Sender s;
    s.send(ping(1));
    const Bytes good = s.out;
    // A 1 MiB frame of garbage between two good frames.
    Bytes stream = good;
    const std::size_t big = 1 << 20;
    Bytes frame(big, 0xAB);
    FBE::store_u32(frame.data(), static_cast<uint32_t>(big));
    stream.insert(stream.end(), frame.begin(), frame.end());
    stream.insert(stream.end(), good.begin(), good.end());
    for (std::size_t chunk : {stream.size(), std::size_t(4096), std::size_t(3)}) {
        typename TypeParam::Receiver r;
        r.max_frame_size(64 * 1024);
        for (std::size_t at = 0; at < stream.size(); at += chunk)
            r.receive(stream.data() + at, std::min(chunk, stream.size() - at));
        EXPECT_EQ(r.received.size(), 2u) << "chunk " << chunk;
        ASSERT_EQ(r.errors.size(), 1u);
        EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::FrameTooLarge);
        EXPECT_NE(r.errors[0].second.find("above the maximum 65536"), std::string::npos) << r.errors[0].second;
        EXPECT_LT(r.buffer().capacity(), std::size_t(64 * 1024)) << "the big frame was buffered";
        EXPECT_FALSE(r.broken());
    }
    // A hostile 4 GiB size: refused at once, nothing allocated.
    typename TypeParam::Receiver r;
    const Bytes huge = {0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3};
    r.receive(huge);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::FrameTooLarge);
    EXPECT_LT(r.buffer().capacity(), std::size_t(1024));
}

TYPED_TEST(Both, SplitFrameSizeAllocatesOnlyWhatArrived) {
    // Issue 13 item 4: a frame size split across two reads used to reserve()
    // the declared size (up to max_frame_size) before any body byte arrived.
    typename TypeParam::Sender s;
    s.send(ping(1, std::string(3000, 'p')));
    const Bytes frame = s.out;
    typename TypeParam::Receiver r;
    const Bytes declared_max = {0x00, 0x00, 0x00, 0x04}; // 64 MiB, the default maximum
    r.receive(declared_max.data(), 2);
    r.receive(declared_max.data() + 2, 2);
    EXPECT_LT(r.buffer().capacity(), std::size_t(1024)) << "reserved before the body arrived";
    const Bytes body(100, 0);
    r.receive(body);
    EXPECT_LT(r.buffer().capacity(), std::size_t(1024)) << "grew beyond what arrived";
    EXPECT_TRUE(r.errors.empty());
    // The buffer grows with the bytes of a real frame and still delivers it.
    typename TypeParam::Receiver good;
    good.receive(frame.data(), 2);
    for (std::size_t at = 2; at < frame.size(); at += 7)
        good.receive(frame.data() + at, std::min<std::size_t>(7, frame.size() - at));
    ASSERT_EQ(good.received.size(), 1u);
    EXPECT_EQ(good.received[0], ping(1, std::string(3000, 'p')).string());
}

TYPED_TEST(Both, UnknownTypeIsReportedAndSkipped) {
    typename TypeParam::Sender s;
    s.send(ping(1));
    Bytes unknown = s.out;
    // Patch the type id (versioned: at the struct offset + 4; final: at 4).
    const std::size_t at = TypeParam::kMin == 16 ? FBE::load_u32(unknown.data() + 4) + 4 : 4;
    FBE::store_u32(unknown.data() + at, 999);
    Bytes stream = unknown;
    stream.insert(stream.end(), s.out.begin(), s.out.end());
    typename TypeParam::Receiver r;
    for (uint8_t b : stream)
        r.receive(&b, 1);
    EXPECT_EQ(r.received.size(), 1u);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::UnknownType);
    EXPECT_NE(r.errors[0].second.find("999"), std::string::npos);
    EXPECT_EQ(r.receive_errors(), 1u);
}

TYPED_TEST(Both, BodyFailingVerifyIsReportedAndSkipped) {
    typename TypeParam::Sender s;
    s.send(ping(1, "payload"));
    Bytes corrupt = s.out;
    // The payload string size: make it larger than the frame.
    const std::string text = "payload";
    auto it = std::search(corrupt.begin(), corrupt.end(), text.begin(), text.end());
    ASSERT_NE(it, corrupt.end());
    FBE::store_u32(&*(it - 4), 1000000);
    Bytes stream = corrupt;
    stream.insert(stream.end(), s.out.begin(), s.out.end());
    typename TypeParam::Receiver r;
    r.receive(stream);
    EXPECT_EQ(r.received.size(), 1u);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::InvalidBody);
    EXPECT_NE(r.errors[0].second.find("rpc.Ping"), std::string::npos) << r.errors[0].second;
    // the type, the field and the problem (issue 14 item 4)
    EXPECT_NE(r.errors[0].second.find("payload"), std::string::npos) << r.errors[0].second;
}

// docs/limits.md 3, 5: a Receiver gives every frame its limits; a frame
// that asks for more than the decode budget is reported and skipped, and
// the next frame is delivered.
TEST(Protocol, ReceiverAppliesItsLimitsToEveryFrame) {
    VSender s;
    s.send(ping(1, std::string(1000, 'x')));
    s.send(ping(2));
    VReceiver r;
    FBE::Limits limits;
    limits.budget_factor = 0; // the budget is the slack alone
    limits.budget_slack = 200;
    limits.max_frame_size = 4096;
    r.limits(limits);
    EXPECT_EQ(r.max_frame_size(), 4096u);
    r.receive(s.out);
    ASSERT_EQ(r.received.size(), 1u);
    EXPECT_EQ(r.received[0], ping(2).string());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::InvalidBody);
    EXPECT_NE(r.errors[0].second.find("decode budget exceeded"), std::string::npos) << r.errors[0].second;

    VReceiver defaults;
    defaults.receive(s.out);
    EXPECT_EQ(defaults.received.size(), 2u);
    EXPECT_TRUE(defaults.errors.empty());
}

TEST(Protocol, VersionedFrameWithAStructOffsetOutsideTheFrame) {
    VSender s;
    s.send(ping(1));
    Bytes bad = s.out;
    FBE::store_u32(bad.data() + 4, static_cast<uint32_t>(bad.size())); // struct offset
    Bytes stream = bad;
    stream.insert(stream.end(), s.out.begin(), s.out.end());
    VReceiver r;
    r.receive(stream);
    EXPECT_EQ(r.received.size(), 1u);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].first, FBE::ReceiveError::BadHeader);
}

TYPED_TEST(Both, RandomGarbageNeverCrashes) {
    // Whatever the bytes, the receiver reports and never reads outside them
    // (ASan/UBSan build) nor buffers more than the maximum frame.
    std::mt19937 random(99);
    std::vector<std::string> texts;
    const Bytes good = sample_stream<typename TypeParam::Sender>(&texts);
    for (int round = 0; round < 400; ++round) {
        Bytes stream = good;
        const int flips = 1 + round % 8;
        for (int i = 0; i < flips; ++i)
            stream[std::uniform_int_distribution<std::size_t>(0, stream.size() - 1)(random)] =
                static_cast<uint8_t>(random());
        typename TypeParam::Receiver r;
        r.max_frame_size(4096);
        std::size_t at = 0;
        while (at < stream.size()) {
            const std::size_t n = std::min(std::uniform_int_distribution<std::size_t>(1, 64)(random), stream.size() - at);
            Bytes chunk(stream.begin() + static_cast<std::ptrdiff_t>(at), stream.begin() + static_cast<std::ptrdiff_t>(at + n));
            r.receive(chunk.data(), chunk.size());
            at += n;
        }
        EXPECT_LE(r.buffer().capacity(), std::size_t(4096));
        EXPECT_LE(r.received.size(), texts.size());
    }
}

TEST(Protocol, ProxyForwardsRawFrames) {
    struct Forward : FBE::rpcext::Proxy<> {
        using FBE::rpcext::Proxy<>::onProxy;
        Bytes forwarded;
        std::vector<std::size_t> types;
        void onProxy(FBE::rpc::PingModel<FBE::ReadBuffer>& model, std::size_t type, const void* data,
                     std::size_t size) override {
            ::rpc::Ping value;
            EXPECT_GT(model.deserialize(value), 0u);
            types.push_back(type);
            forwarded.insert(forwarded.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        }
        void onProxy(FBE::rpcext::ExtPingModel<FBE::ReadBuffer>&, std::size_t type, const void* data,
                     std::size_t size) override {
            types.push_back(type);
            forwarded.insert(forwarded.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        }
    } proxy;
    VSender s;
    ::rpcext::ExtPing ext;
    s.send(ping(1));
    s.send(ext);
    s.send(ping(2));
    for (uint8_t b : s.out)
        proxy.receive(&b, 1);
    EXPECT_EQ(proxy.forwarded, s.out);
    EXPECT_EQ(proxy.types.size(), 3u);
}

TEST(Protocol, HandlerExceptionPropagatesAndTheNextFrameIsDelivered) {
    struct Throwing : VReceiver {
        bool armed = true;
        void onReceive(const ::rpc::Ping& v) override {
            if (armed) {
                armed = false;
                throw std::runtime_error("handler failed");
            }
            VReceiver::onReceive(v);
        }
    } r;
    VSender s;
    s.send(ping(1));
    const Bytes frame = s.out;
    r.receive(frame.data(), 10);
    EXPECT_THROW(r.receive(frame.data() + 10, frame.size() - 10), std::runtime_error);
    r.receive(frame);
    EXPECT_EQ(r.received.size(), 1u);
}

TEST(Protocol, FramesAfterAThrowingHandlerAreDeliveredByTheNextCall) {
    struct Throwing : VReceiver {
        int throws = 1;
        void onReceive(const ::rpc::Ping& v) override {
            if (throws > 0) {
                --throws;
                throw std::runtime_error("handler failed");
            }
            VReceiver::onReceive(v);
        }
    };
    VSender s;
    s.send(ping(1));
    s.send(ping(2));
    s.send(ping(3));
    const Bytes stream = s.out;
    {
        Throwing r; // all three frames in one chunk, plus half of a fourth
        Bytes chunk = stream;
        chunk.insert(chunk.end(), stream.begin(), stream.begin() + 10);
        EXPECT_THROW(r.receive(chunk), std::runtime_error);
        EXPECT_TRUE(r.received.empty());
        r.receive(stream.data() + 10, stream.size() / 3 - 10);
        EXPECT_EQ(r.received.size(), 3u);
        EXPECT_TRUE(r.errors.empty());
    }
    {
        Throwing r; // two handlers throw in a row: no byte is lost
        r.throws = 2;
        EXPECT_THROW(r.receive(stream.data(), stream.size() / 3 * 2 + 5), std::runtime_error);
        EXPECT_THROW(r.receive(stream.data() + stream.size() / 3 * 2 + 5, 5), std::runtime_error);
        r.receive(stream.data() + stream.size() / 3 * 2 + 10, stream.size() / 3 - 10);
        EXPECT_EQ(r.received.size(), 1u);
        EXPECT_EQ(r.received[0], ping(3).string());
    }
    {
        Throwing r; // the throwing frame completed from the buffer
        r.receive(stream.data(), 10);
        EXPECT_THROW(r.receive(stream.data() + 10, stream.size() - 10), std::runtime_error);
        r.receive(nullptr, 0);
        EXPECT_EQ(r.received.size(), 2u);
    }
}

} // namespace
