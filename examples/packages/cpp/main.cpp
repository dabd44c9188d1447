// A user's program on the fbe CMake package and the code fbe_generate() made of shop.fbe:
//   app write OUT         writes the sample shop.Order (versioned model) to OUT
//   app roundtrip IN OUT  reads a shop.Order from IN and writes it back to OUT
#include "shop_models.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

shop::Order sample() {
    shop::Order order;
    shop::Cart& cart = order.cart;
    cart.id = FBE::uuid_t("123e4567-e89b-12d3-a456-426655440000");
    cart.color = shop::Color::blue;
    cart.perm = shop::Perm::read | shop::Perm::write;
    cart.note = -7;
    cart.lines = {shop::Line("A-1", 2), shop::Line("\xC3\x9Cn\xC3\xAF", -3)};  // "Ünï"
    cart.prices = {{"A-1", FBE::decimal_t("19.99")},
                   {"B-2", FBE::decimal_t("-0.000001")},
                   {"C", FBE::decimal_t("79228162514264337593543950335")}};
    cart.at = 1'700'000'000'123'456'789ULL;
    return order;
}

std::vector<uint8_t> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    const bool roundtrip = argc == 4 && std::strcmp(argv[1], "roundtrip") == 0;
    if (!roundtrip && !(argc == 3 && std::strcmp(argv[1], "write") == 0)) {
        std::cerr << "usage: app write OUT | app roundtrip IN OUT\n";
        return EXIT_FAILURE;
    }
    shop::Order order = sample();
    if (roundtrip) {
        const std::vector<uint8_t> data = read_file(argv[2]);
        FBE::shop::OrderModel<FBE::ReadBuffer> reader;
        reader.attach(data.data(), data.size());
        if (!reader.verify() || reader.deserialize(order) == 0) {
            std::cerr << "app: " << argv[2] << ": " << reader.error() << "\n";
            return EXIT_FAILURE;
        }
    }
    FBE::shop::OrderModel<FBE::WriteBuffer> writer;
    writer.serialize(order);
    std::ofstream out(argv[argc - 1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(writer.buffer().data()), static_cast<std::streamsize>(writer.buffer().size()));
    return out ? EXIT_SUCCESS : EXIT_FAILURE;
}
