// libFuzzer target: the versioned and final readers of the C++ runtime on
// arbitrary bytes. The first byte picks the type and the model; the rest is
// the buffer. verify() and deserialize() must never read outside the buffer,
// allocate beyond what it can justify, or hang — with or without verify();
// in the versioned model they must agree (verify() == deserialize() success),
// and the field models and the views (FBE::View, FBE::VerifiedView) of a
// versioned root read nothing outside it.
#include "proto_models.h"
#include "proto_final_models.h"
#include "test_models.h"
#include "test_final_models.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace {

//! The field models (views, fbe/field_model.h) of an Account walked field by
//! field: whatever the bytes, no view reads outside the buffer.
template <typename Model>
void walk_account(Model& model)
{
    const std::size_t begin = model.model.get_begin();
    int32_t id = 0;
    std::string name;
    ::proto::State state{};
    model.model.id.get(id);
    model.model.name.get(name);
    model.model.state.get(state);
    const std::size_t wallet = model.model.wallet.get_begin();
    model.model.wallet.currency.get(name);
    model.model.wallet.get_end(wallet);
    if (model.model.asset.has_value()) {
        const std::size_t asset = model.model.asset.get_begin();
        ::proto::Balance balance;
        model.model.asset.value.get(balance);
        model.model.asset.get_end(asset);
    }
    const std::size_t count = model.model.orders.size();
    for (std::size_t i = 0; i <= count && i < 64; ++i) { // one beyond the items too
        auto order = model.model.orders[i];
        const std::size_t body = order.get_begin();
        order.symbol.get(name);
        double volume = 0;
        order.volume.get(volume);
        order.get_end(body);
    }
    model.model.get_end(begin);
}

//! The views (fbe/view.h) of an Account walked field by field and item by
//! item (one beyond the items too): whatever the bytes, none reads outside
//! the root; of a verified root, every whole value reads. The same walk
//! through a verified view (FBE::verified_view, no checks while reading),
//! which is made only of a root verify() accepts.
template <typename AccountView>
void walk_account_view(const AccountView& account, bool verified)
{
    std::size_t sum = std::size_t(account.id()) + account.name().size() + std::size_t(account.state());
    sum += account.wallet().currency().size() + std::size_t(account.wallet().amount() != 0.0);
    if (account.asset().has_value())
        sum += account.asset().value().currency().size();
    const auto orders = account.orders();
    for (std::size_t i = 0; i <= orders.size() && i < 64; ++i)
        sum += orders[i].symbol().size() + std::size_t(orders[i].volume() != 0.0);
    for (const auto& order : orders)
        sum += std::size_t(order.id());
    ::proto::Account whole;
    if (!account.get(whole) && verified)
        __builtin_trap();
    static volatile std::size_t sink;
    sink = sum; // keeps the reads
    (void)sink;
}

void view_account(const uint8_t* data, std::size_t size, bool verified)
{
    walk_account_view(FBE::view<::proto::Account>(data, size), verified);
    const auto trusted = FBE::verified_view<::proto::Account>(data, size);
    if (trusted.has_value() && !verified)
        __builtin_trap();
    if (trusted.has_value())
        walk_account_view(trusted, verified);
}

template <typename T>
void read_versioned(const uint8_t* data, std::size_t size)
{
    FBE::ViewModel<T, FBE::ReadBuffer> model;
    model.attach(data, size);
    T value{};
    // docs/limits.md 4: verify() is true exactly when deserialize() succeeds.
    const bool verified = model.verify();
    const bool read = model.deserialize(value) != 0; // unverified reads must be safe too
    if (verified != read)
        __builtin_trap();
    // The views: a verified root reads through them as a whole.
    T viewed{};
    if (!model.model.get(viewed) && verified)
        __builtin_trap();
    if constexpr (std::is_same_v<T, ::proto::Account>) {
        walk_account(model);
        view_account(data, size, verified);
    }
}

template <typename T>
void read_final(const uint8_t* data, std::size_t size)
{
    FBE::FinalModel<T, FBE::ReadBuffer> model;
    model.attach(data, size);
    T value{};
    model.verify();
    model.deserialize(value);
}

template <typename T>
void read_both(bool final, const uint8_t* data, std::size_t size)
{
    if (final)
        read_final<T>(data, size);
    else
        read_versioned<T>(data, size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t selector = data[0];
    const bool final = selector & 1;
    ++data;
    --size;
    switch ((selector >> 1) % 8) {
        case 0: read_both<::proto::Account>(final, data, size); break;
        case 1: read_both<::proto::Order>(final, data, size); break;
        case 2: read_both<::test::StructNested>(final, data, size); break;
        case 3: read_both<::test::StructArray>(final, data, size); break;
        case 4: read_both<::test::StructVector>(final, data, size); break;
        case 5: read_both<::test::StructSet>(final, data, size); break;
        case 6: read_both<::test::StructMap>(final, data, size); break;
        default: read_both<::test::StructHashEx>(final, data, size); break;
    }
    return 0;
}
