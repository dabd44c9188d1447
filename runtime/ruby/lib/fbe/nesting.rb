# frozen_string_literal: true

module Fbe
  # The writers' depth check (docs/limits.md 1): generated writers count no levels. A struct whose
  # schema bounds its nesting (FBE_LEVELS, at most MAX_DEPTH: fbec refuses deeper types) cannot be
  # too deep; a root of a struct that can nest without a bound (FBE_LEVELS nil) is walked once before
  # it is written, and a value nested deeper than MAX_DEPTH, or holding itself, is refused.
  module Nesting
    module_function

    # Raises the DepthError of the first struct value, in field order, below MAX_DEPTH levels (the
    # root is level 1): `cannot write recursive.Node: structs nested deeper than 128`.
    def check(value, depth = 1)
      raise DepthError, "cannot write #{value.class::FBE_NAME}: structs nested deeper than #{MAX_DEPTH}" if
        depth > MAX_DEPTH

      value.class::FBE_FIELDS.zip(value.fbe_values) { |(_, codec), v| part(codec, v, depth + 1) }
    end

    # The struct values a field's value holds, at depth (a value of the wrong kind is left to the
    # writer, which refuses it).
    def part(codec, value, depth)
      case codec
      when Types::Struct
        check(value, depth) if value.is_a?(Value)
      when Types::Optional
        part(codec.element, value, depth) unless value.nil?
      when Types::FixedArray, Types::Sequence
        value.each { |e| part(codec.element, e, depth) } if codec.nests? && value.is_a?(Enumerable)
      when Types::Mapping
        entries(codec, value, depth) if codec.nests? && value.is_a?(::Hash)
      end
    end

    def entries(codec, hash, depth)
      hash.each do |k, v|
        part(codec.key_type, k, depth)
        part(codec.value_type, v, depth)
      end
    end
  end
end
