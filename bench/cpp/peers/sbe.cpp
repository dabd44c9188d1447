// SBE: C++ codecs generated at build time by SBE's own tool (sbe-all from
// Maven Central) from schemas/trade-sbe.xml. Encoding writes into a reused
// buffer; decoding walks the message in schema order (fixed block, groups,
// variable-length data) into the domain object. SBE has no verifier; its
// generated accessors bounds-check positions as they go.
#include "sbe_trade/Account.h"
#include "sbe_trade/MessageHeader.h"

#include "../bench.h"

namespace bench {
namespace {

struct SbeTrade {
    static constexpr bool has_verify = false;
    std::vector<char> buf = std::vector<char>(4096);
    size_t size = 0;
    sbe_trade::Account enc;
    sbe_trade::Account dec;
    sbe_trade::MessageHeader hdr;

    void serialize(const dom::Account& a) {
        enc.wrapAndApplyHeader(buf.data(), 0, buf.size())
            .id(a.id)
            .state(dom::u8(a.state))
            .walletAmount(a.wallet.amount)
            .hasAsset(a.asset ? 1 : 0)
            .assetAmount(a.asset ? a.asset->amount : 0.0);
        auto& orders = enc.ordersCount(uint16_t(a.orders.size()));
        for (const dom::Order& o : a.orders) {
            orders.next()
                .id(o.id)
                .side(sbe_trade::OrderSide::get(dom::u8(o.side)))
                .type(sbe_trade::OrderType::get(dom::u8(o.type)))
                .price(o.price)
                .volume(o.volume);
            orders.putSymbol(o.symbol.data(), uint32_t(o.symbol.size()));
        }
        enc.putName(a.name.data(), uint32_t(a.name.size()));
        enc.putWalletCurrency(a.wallet.currency.data(), uint32_t(a.wallet.currency.size()));
        if (a.asset)
            enc.putAssetCurrency(a.asset->currency.data(), uint32_t(a.asset->currency.size()));
        else
            enc.putAssetCurrency("", 0);
        size = sbe_trade::MessageHeader::encodedLength() + enc.encodedLength();
    }
    Bytes bytes() const { return {reinterpret_cast<const uint8_t*>(buf.data()), size}; }
    bool verify(const uint8_t*, size_t) { return false; }

    bool deserialize(const uint8_t* p, size_t n, dom::Account& a) {
        try {
            char* b = const_cast<char*>(reinterpret_cast<const char*>(p));  // the decoder only reads
            hdr.wrap(b, 0, 0, n);
            if (hdr.templateId() != sbe_trade::Account::sbeTemplateId()) return false;
            dec.wrapForDecode(b, sbe_trade::MessageHeader::encodedLength(), hdr.blockLength(), hdr.version(), n);
            a.id = dec.id();
            a.state = dom::to_state(dec.state());
            a.wallet.amount = dec.walletAmount();
            bool has_asset = dec.hasAsset() != 0;
            double asset_amount = dec.assetAmount();
            auto& orders = dec.orders();
            a.orders.resize(orders.count());
            for (dom::Order& o : a.orders) {
                orders.next();
                o.id = orders.id();
                o.side = dom::to_side(uint32_t(orders.side()));
                o.type = dom::to_type(uint32_t(orders.type()));
                o.price = orders.price();
                o.volume = orders.volume();
                o.symbol.assign(orders.getSymbolAsStringView());
            }
            a.name.assign(dec.getNameAsStringView());
            a.wallet.currency.assign(dec.getWalletCurrencyAsStringView());
            std::string_view asset_currency = dec.getAssetCurrencyAsStringView();
            if (dec.sbePosition() > n) return false;
            if (has_asset) {
                if (!a.asset) a.asset.emplace();
                a.asset->currency.assign(asset_currency);
                a.asset->amount = asset_amount;
            } else {
                a.asset.reset();
            }
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }
};

}  // namespace

void register_sbe() { register_trade<SbeTrade>("sbe", "SBE"); }

}  // namespace bench
