# frozen_string_literal: true

module Fbe
  # Why a value cannot be written, naming the field path (docs/limits.md 8):
  # `cannot encode decimals.Prices.priceVector[1]: decimal 1e40 out of range: more than 96 bits`.
  #
  # The writers (to_fbe, to_final, to_json) call it only once their own write failed: it walks the
  # value's fields (FBE_FIELDS of each generated class: the schema's names and the codecs) and the
  # elements of its collections, each checked alone with its codec's final writer, down to the
  # innermost part that cannot be written; the writer's own error is shown when it finds none.
  module Explain
    module_function

    # The Fbe::EncodeError to raise for the struct value whose write raised error (an EncodeError, or
    # the TypeError of Array#pack given no Numeric for a float or double, which generated writers
    # pack unchecked): error itself when it is of the whole value (structs nested too deep) or no
    # part of the value is found to blame.
    def error(value, error)
      return error if error.is_a?(DepthError)

      path, reason = struct_problem(value, 0)
      return EncodeError.new("cannot encode #{value.class::FBE_NAME}#{path}: #{reason}") if path

      error.is_a?(EncodeError) ? error : EncodeError.new(error.message)
    end

    # [path below the struct, reason] of the first field that cannot be written, or nil.
    def struct_problem(value, depth)
      return nil if depth > MAX_DEPTH # a value holding itself: the writer's depth error says it

      value.class::FBE_FIELDS.zip(value.fbe_values).each do |(name, codec), v|
        found = problem(codec, v, depth)
        return [".#{name}#{found[0]}", found[1]] if found
      end
      nil
    end

    # [path, reason] of the innermost part of a value the codec cannot write, or nil.
    def problem(codec, value, depth)
      codec.fwrite(Writer.new, value)
      nil
    rescue DepthError
      nil
    rescue EncodeError, TypeError => e
      inner(codec, value, depth) || ['', e.message]
    end

    def inner(codec, value, depth)
      return struct_problem(value, depth + 1) if codec.is_a?(Types::Struct) && value.is_a?(Value)
      return nil unless codec.respond_to?(:fbe_parts)

      codec.fbe_parts(value) do |suffix, part, v|
        found = problem(part, v, depth)
        return ["#{suffix}#{found[0]}", found[1]] if found
      end
      nil
    end
  end

  # The parts of a collection value the explanation walks: (path suffix, codec, value) of each.
  module Types
    # The value itself, when present.
    class Optional
      def fbe_parts(value)
        yield '', @element, value unless value.nil?
      end
    end

    # Each element, by index.
    class FixedArray
      def fbe_parts(value, &)
        Sequence.each_indexed(value, @element, &)
      end
    end

    # Each element, by index (a set's in the order it holds them).
    class Sequence
      def fbe_parts(value, &)
        Sequence.each_indexed(value, @element, &)
      end

      def self.each_indexed(value, element)
        return unless value.respond_to?(:each_with_index)

        value.each_with_index { |v, i| yield "[#{i}]", element, v }
      end
    end

    # Each key and value, by key.
    class Mapping
      def fbe_parts(value)
        return unless value.is_a?(::Hash)

        value.each do |k, v|
          yield "[#{k.inspect}]", @key, k
          yield "[#{k.inspect}]", @value, v
        end
      end
    end
  end
end
