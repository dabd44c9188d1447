# frozen_string_literal: true

# The Ruby benchmark on the trade model (docs/benchmarks.md, section Ruby): our code of fbec --ruby
# --final --json against google-protobuf (C extension), msgpack (C extension), Marshal, oj and json,
# in one process, timed with benchmark-ips.
#
# Every row converts from and to the same domain objects (the classes fbec --ruby generates for
# schemas/trade.fbe): serialize is Account -> String, deserialize + touch is String -> Account, then
# every field read. Each round is one Benchmark.ips run over every row's operations (warm-up, then
# samples); the table gives the median of the rounds' ns per operation and the best round.
#
#   ruby -I<runtime/ruby/lib> -I<gen> bench/ruby/bench_trade.rb --check
#   ruby ... bench/ruby/bench_trade.rb [--rounds N] [--time S] [--warmup S] [--out DIR]

require 'benchmark/ips'
require 'fileutils'
require 'json'
require 'msgpack'
require 'oj'
require 'optparse'
require 'trade/proto'
require 'trade_pb'

Account = Proto::Account
Balance = Proto::Balance
Order = Proto::Order
State = Proto::State
OrderSide = Proto::OrderSide
OrderType = Proto::OrderType

def order(num, symbol, side, type, price, volume)
  Order.new(id: num, symbol: +symbol, side:, type:, price:, volume:)
end

# The account of bench/cpp/domain.cpp's sample_account.
def sample
  Account.new(
    id: 1, name: +'Test', state: State::GOOD,
    wallet: Balance.new(currency: +'USD', amount: 1000.0),
    asset: Balance.new(currency: +'EUR', amount: 100.0),
    orders: [
      order(1, 'EURUSD', OrderSide::BUY, OrderType::MARKET, 1.23456, 1000.0),
      order(2, 'EURUSD', OrderSide::SELL, OrderType::LIMIT, 1.0, 100.0),
      order(3, 'EURUSD', OrderSide::BUY, OrderType::STOP, 1.5, 10.0)
    ]
  )
end

# The accounts every row round-trips before it is timed (bench/cpp/domain.cpp's check_accounts).
def check_accounts
  b = Account.new(id: 42, name: +'Second account', state: State::INITIALIZED,
                  wallet: Balance.new(currency: +'GBP', amount: -12.5),
                  orders: (0...5).map do |i|
                    order(100 + i, i.odd? ? 'GBPUSD' : 'USDJPY', i.odd? ? OrderSide::SELL : OrderSide::BUY,
                          OrderType.from_wire(i % 3), 0.5 + i, 1e6 * (i + 1))
                  end)
  c = Account.new(id: 0, name: +'', state: State::UNKNOWN, wallet: Balance.new(currency: +'', amount: 0.0))
  [sample, b, c]
end

# Every field of a decoded account, as plain values (what the check compares, what touch reads).
def fields(acct)
  bal = ->(x) { x && [x.currency, x.amount] }
  [acct.id, acct.name, acct.state.to_i, bal.call(acct.wallet), bal.call(acct.asset),
   acct.orders.map { |o| [o.id, o.symbol, o.side.to_i, o.type.to_i, o.price, o.volume] }]
end

# Reads every field of a decoded account.
def touch(acct)
  s = acct.id + acct.name.bytesize + acct.state.to_i + touch_balance(acct.wallet)
  s += touch_balance(acct.asset) if acct.asset
  acct.orders.each { |o| s += o.id + o.symbol.bytesize + o.side.to_i + o.type.to_i + o.price + o.volume }
  s
end

def touch_balance(bal)
  bal.currency.bytesize + bal.amount
end

# ------------------------------------------------------------------ the rows
# Each row: [name, serialize(account) -> String, deserialize(String) -> Account, verify or nil].

def balance_from(pair)
  pair && Balance.new(currency: pair[0], amount: pair[1])
end

def account_to_a(acct)
  wallet = acct.wallet
  asset = acct.asset
  [acct.id, acct.name, acct.state.to_i, [wallet.currency, wallet.amount], asset && [asset.currency, asset.amount],
   acct.orders.map { |o| [o.id, o.symbol, o.side.to_i, o.type.to_i, o.price, o.volume] }]
end

def account_from_a(v)
  Account.new(id: v[0], name: v[1], state: State.from_wire(v[2]), wallet: balance_from(v[3]), asset: balance_from(v[4]),
              orders: v[5].map do |o|
                Order.new(id: o[0], symbol: o[1], side: OrderSide.from_wire(o[2]), type: OrderType.from_wire(o[3]),
                          price: o[4], volume: o[5])
              end)
end

def hash_balance(b)
  b && { 'currency' => b.currency, 'amount' => b.amount }
end

def account_to_h(acct)
  { 'id' => acct.id, 'name' => acct.name, 'state' => acct.state.to_i, 'wallet' => hash_balance(acct.wallet),
    'asset' => hash_balance(acct.asset),
    'orders' => acct.orders.map do |o|
      { 'id' => o.id, 'symbol' => o.symbol, 'side' => o.side.to_i, 'type' => o.type.to_i, 'price' => o.price,
        'volume' => o.volume }
    end }
end

def balance_from_h(hash)
  hash && Balance.new(currency: hash['currency'], amount: hash['amount'].to_f)
end

def account_from_h(hash)
  Account.new(id: hash['id'], name: hash['name'], state: State.from_wire(hash['state']),
              wallet: balance_from_h(hash['wallet']), asset: balance_from_h(hash['asset']),
              orders: hash['orders'].map do |o|
                Order.new(id: o['id'], symbol: o['symbol'], side: OrderSide.from_wire(o['side']),
                          type: OrderType.from_wire(o['type']), price: o['price'].to_f, volume: o['volume'].to_f)
              end)
end

PB = Pb::Trade

def pb_balance(b)
  b && PB::Balance.new(currency: b.currency, amount: b.amount)
end

def protobuf_ser(acct)
  PB::Account.encode(PB::Account.new(
                       id: acct.id, name: acct.name, state: acct.state.to_i, wallet: pb_balance(acct.wallet),
                       asset: pb_balance(acct.asset),
                       orders: acct.orders.map do |o|
                         PB::Order.new(id: o.id, symbol: o.symbol, side: o.side.to_i, type: o.type.to_i,
                                       price: o.price, volume: o.volume)
                       end
                     ))
end

def protobuf_de(data)
  m = PB::Account.decode(data)
  w = m.wallet
  s = m.asset
  Account.new(id: m.id, name: m.name, state: State.from_wire(m.state),
              wallet: w ? Balance.new(currency: w.currency, amount: w.amount) : Balance.new,
              asset: s && Balance.new(currency: s.currency, amount: s.amount),
              orders: m.orders.map do |o|
                Order.new(id: o.id, symbol: o.symbol, side: OrderSide.from_wire(PB::OrderSide.resolve(o.side)),
                          type: OrderType.from_wire(PB::OrderType.resolve(o.type)), price: o.price, volume: o.volume)
              end)
end

# Our versioned and final rows write and read through the gem's C accelerator when it is loaded
# (Fbe.accelerated?, docs/ruby.md); the pure-Ruby row writes and reads the versioned model without it.
PURE = 'FBE pure Ruby (ours)'
ROWS = [
  ['FBE (ours)', :to_fbe.to_proc, Account.method(:from_fbe), Account.method(:verify_fbe)],
  [PURE, :to_fbe_pure.to_proc, Account.method(:from_fbe_pure), nil],
  ['FBE final (ours)', :to_final.to_proc, Account.method(:from_final), Account.method(:verify_final)],
  ['FBE JSON (ours)', :to_json.to_proc, Account.method(:from_json), nil],
  ["google-protobuf #{Gem.loaded_specs['google-protobuf']&.version}", method(:protobuf_ser), method(:protobuf_de), nil],
  ["msgpack #{MessagePack::VERSION}", ->(a) { MessagePack.pack(account_to_a(a)) },
   ->(d) { account_from_a(MessagePack.unpack(d)) }, nil],
  ['Marshal', Marshal.method(:dump), Marshal.method(:load), nil],
  ["oj #{Oj::VERSION}", ->(a) { Oj.dump(account_to_h(a), mode: :compat) },
   ->(d) { account_from_h(Oj.load(d, mode: :compat)) }, nil],
  ["json #{JSON::VERSION}", ->(a) { JSON.generate(account_to_h(a)) }, ->(d) { account_from_h(JSON.parse(d)) }, nil]
].freeze

# nil when the row round-trips every check account (and its verifier accepts its message and
# rejects a truncated one unless deserialize reads it too); the reason otherwise.
def check(ser, deser, verify)
  check_accounts.each do |a|
    msg = ser.call(a)
    back = deser.call(msg)
    return "round trip differs: #{fields(back).inspect}" unless fields(back) == fields(a)
    next unless verify
    return 'verify refuses its own message' unless verify.call(msg)

    cut = msg.byteslice(0, msg.bytesize - 1)
    readable = begin
      deser.call(cut)
      true
    rescue Fbe::DecodeError
      false
    end
    return 'verify and deserialize disagree on a truncated message' if verify.call(cut) != readable
  end
  nil
rescue StandardError => e
  "#{e.class}: #{e.message}"
end

def median(values)
  s = values.sort
  n = s.size
  n.odd? ? s[n / 2] : (s[(n / 2) - 1] + s[n / 2]) / 2.0
end

def fmt(nanos)
  nanos.round.to_s.reverse.scan(/\d{1,3}/).join(',').reverse
end

def options
  opts = { rounds: 3, time: 1.0, warmup: 0.3, out: nil, check: false }
  OptionParser.new do |o|
    o.on('--check') { opts[:check] = true }
    o.on('--rounds N', Integer) { |v| opts[:rounds] = v }
    o.on('--time S', Float) { |v| opts[:time] = v }
    o.on('--warmup S', Float) { |v| opts[:warmup] = v }
    o.on('--out DIR') { |v| opts[:out] = v }
  end.parse!
  opts
end

# The timed operations of the rows that passed their check: [row, operation, block], and the sizes.
def tasks(status)
  account = sample
  sizes = {}
  list = []
  ROWS.each do |name, ser, de, verify|
    next unless status[name] == 'ok'

    msg = ser.call(account)
    sizes[name] = msg.bytesize
    list << [name, 'serialize', -> { ser.call(account) }]
    list << [name, 'deserialize+touch', -> { touch(de.call(msg)) }]
    list << [name, 'verify', -> { verify.call(msg) }] if verify
  end
  [list, sizes]
end

# ns per operation of every round, by "row\toperation".
def measure(list, opts)
  nanos = Hash.new { |h, k| h[k] = [] }
  opts[:rounds].times do |round|
    warn "bench-ruby: round #{round + 1} of #{opts[:rounds]}: #{list.size} operations, " \
         "benchmark-ips #{opts[:warmup]} s warm-up and #{opts[:time]} s each"
    report = Benchmark.ips(time: opts[:time], warmup: opts[:warmup], quiet: true) do |x|
      list.each { |name, op, fn| x.report("#{name}\t#{op}", &fn) }
    end
    report.entries.each { |e| nanos[e.label] << (1e9 / e.ips) }
  end
  nanos
end

def table(status, sizes, med, best)
  cell = lambda { |name, op|
    med.key?("#{name}\t#{op}") ? "#{fmt(med["#{name}\t#{op}"])} (#{fmt(best["#{name}\t#{op}"])})" : ''
  }
  lines = ['| row | size, bytes | serialize, ns | deserialize + touch, ns | verify, ns | check |',
           '| --- | --: | --: | --: | --: | --- |']
  ROWS.each do |name, *|
    cells = if status[name] == 'ok'
              [sizes[name], cell.call(name, 'serialize'), cell.call(name, 'deserialize+touch'),
               cell.call(name, 'verify'), 'ok']
            else
              ['', '', '', '', status[name]]
            end
    lines << "| #{[name, *cells].join(' | ')} |"
  end
  lines
end

OURS = 'FBE (ours)'
MSGPACK = ROWS.find { |name, *| name.start_with?('msgpack') }[0]
GOALS = {
  'faster than Marshal on serialize and on deserialize + touch' => lambda { |t|
    %w[serialize deserialize+touch].all? { |op| t["#{OURS}\t#{op}"] < t["Marshal\t#{op}"] }
  },
  'within 3x of the msgpack C extension on serialize and on deserialize + touch' => lambda { |t|
    %w[serialize deserialize+touch].all? { |op| t["#{OURS}\t#{op}"] <= 3 * t["#{MSGPACK}\t#{op}"] }
  },
  'pure Ruby (no accelerator) within 3x of the msgpack C extension on serialize' => lambda { |t|
    t["#{PURE}\tserialize"] <= 3 * t["#{MSGPACK}\tserialize"]
  },
  'with the C accelerator, faster than the msgpack C extension on serialize' => lambda { |t|
    Fbe.accelerated? && t["#{OURS}\tserialize"] < t["#{MSGPACK}\tserialize"]
  },
  'verify <= deserialize + touch, both models' => lambda { |t|
    [OURS, 'FBE final (ours)'].all? { |row| t["#{row}\tverify"] <= t["#{row}\tdeserialize+touch"] }
  }
}.freeze

def verdict(goal, times)
  goal.call(times) ? 'met' : 'not met'
rescue NoMethodError
  'no figures'
end

def report(status, sizes, nanos, opts)
  med = nanos.transform_values { |v| median(v) }
  best = nanos.transform_values(&:min)
  yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 'on' : 'off'
  lines = table(status, sizes, med, best)
  lines << ''
  lines << "Medians of #{opts[:rounds]} rounds of benchmark-ips (#{opts[:warmup]} s warm-up, #{opts[:time]} s " \
           "per operation; best round in brackets), ruby #{RUBY_VERSION}, YJIT #{yjit}, C accelerator " \
           "#{Fbe.accelerated? ? 'on' : 'off'}."
  lines << ''
  lines << 'Goals of issue 28 (ratios in this run), on medians / on best rounds:'
  lines << ''
  GOALS.each { |text, goal| lines << "- #{text}: #{verdict(goal, med)} / #{verdict(goal, best)}" }
  "#{lines.join("\n")}\n"
end

def main
  opts = options
  status = ROWS.to_h { |name, ser, de, verify| [name, check(ser, de, verify) || 'ok'] }
  status.each { |name, st| puts "row\t#{name}\t#{st}" }
  exit(status.values.all?('ok') ? 0 : 1) if opts[:check]

  list, sizes = tasks(status)
  md = report(status, sizes, measure(list, opts), opts)
  puts md
  return unless opts[:out]

  FileUtils.mkdir_p(opts[:out])
  File.write(File.join(opts[:out], 'ruby.md'), md)
end

main
