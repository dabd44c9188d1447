# frozen_string_literal: true

# A user's program on the installed fbe gem and the code `fbec --ruby` generated into gen/:
#
#   ruby app.rb write OUT           writes the sample shop.Order (versioned model) to OUT
#   ruby app.rb roundtrip IN OUT    reads a shop.Order from IN and writes it back to OUT
require 'bigdecimal'
require_relative 'gen/shop'

def sample
  Shop::Order.new(
    cart: Shop::Cart.new(
      id: '123e4567-e89b-12d3-a456-426655440000',
      color: Shop::Color::BLUE,
      perm: Shop::Perm::READ | Shop::Perm::WRITE,
      note: -7,
      memo: nil,
      lines: [Shop::Line.new(sku: 'A-1', qty: 2), Shop::Line.new(sku: 'Ünï', qty: -3)],
      prices: {
        'A-1' => BigDecimal('19.99'),
        'B-2' => BigDecimal('-0.000001'),
        'C' => BigDecimal('79228162514264337593543950335')
      },
      at: 1_700_000_000_123_456_789
    )
  )
end

case ARGV[0]
when 'write' then File.binwrite(ARGV[1], sample.to_fbe)
when 'roundtrip' then File.binwrite(ARGV[2], Shop::Order.from_fbe(File.binread(ARGV[1])).to_fbe)
else abort "unknown command #{ARGV[0]}"
end
