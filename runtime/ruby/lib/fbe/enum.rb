# frozen_string_literal: true

module Fbe
  # What enums and flags share: a frozen value of a wire integer, equal to another of its class
  # with the same integer, ordered as the integer (sets and maps: docs/format.md 3.4).
  module WireValue
    include Comparable

    attr_reader :value

    def to_i
      @value
    end

    def inspect
      "#<#{self.class.name} #{self}(#{@value})>"
    end

    def ==(other)
      other.instance_of?(self.class) && other.value == @value
    end

    alias eql? ==

    def hash
      [self.class, @value].hash
    end

    def <=>(other)
      other.instance_of?(self.class) ? number <=> other.number : nil
    end
  end

  # The base of a generated enum: one frozen value per schema constant (`OrderSide::BUY`), and
  # values the schema does not name kept as they are (`OrderSide.from_wire(7)`). A generated
  # enum defines BY_VALUE (wire value => constant) and NAMES (wire value => first declared name).
  class Enum
    include WireValue

    def initialize(value)
      @value = value
      freeze
    end

    # The value of a wire integer: the declared constant, or a value the schema does not name.
    def self.from_wire(value)
      self::BY_VALUE[value] || new(value)
    end

    # The value of 0, what a field of the enum holds unless the schema says otherwise.
    def self.default
      from_wire(0)
    end

    # The integer, as the enum's underlying type reads it.
    def number
      @value
    end

    # The first declared name of the value, or <unknown> (docs/format.md 9).
    def to_s
      self.class::NAMES[@value] || '<unknown>'
    end
  end

  # The base of generated flags: a value of bits (`State::GOOD | State::BROKEN`), undeclared bits
  # kept. A generated flags class defines BY_VALUE (bits => first declared constant of them),
  # NAMES: [[name, bits], ...] in declaration order,
  # BITS, the width of its wire integer, and SIGNED, whether that integer is signed.
  class Flags
    include WireValue

    def initialize(value)
      @value = value & ((1 << self.class::BITS) - 1)
      freeze
    end

    # The value of wire bits: the first declared constant of them, else a new value.
    def self.from_wire(value)
      self::BY_VALUE[value] || new(value)
    end

    def self.default
      new(0)
    end

    def |(other)
      self.class.new(@value | other.to_i)
    end

    def &(other)
      self.class.new(@value & other.to_i)
    end

    def ^(other)
      self.class.new(@value ^ other.to_i)
    end

    def ~
      self.class.new(~@value)
    end

    # Whether every bit of other is set.
    def set?(other)
      bits = other.to_i
      @value & bits == bits
    end

    # The number the flags are: the wire bits read as the underlying integer (signed or not).
    def number
      return @value unless self.class::SIGNED

      top = 1 << (self.class::BITS - 1)
      @value >= top ? @value - (top << 1) : @value
    end

    # Every declared name whose bits are all set, in declaration order, joined by | (names worth 0
    # never print, undeclared bits vanish: docs/format.md 9).
    def to_s
      self.class::NAMES.filter_map { |name, bits| name if bits != 0 && @value & bits == bits }.join('|')
    end
  end
end
