# frozen_string_literal: true

# Fbe::ACCEL and Fbe.accelerated?: whether the C accelerator is loaded.
module Fbe
  # The optional C accelerator (ext/fbe_accel, docs/ruby.md "The C accelerator"): when the gem was
  # installed with a C compiler at hand, Fbe::Value#to_fbe writes a struct's versioned root in one C
  # call (Fbe::Accel.to_fbe), the same bytes as the pure-Ruby writer, which writes every value the
  # C code is not sure of (and raises its errors); from_fbe reads one in one C call (Fbe::Accel.from_fbe),
  # the value of the pure-Ruby reader, which reads every input the C code refuses or is not sure of
  # (and raises its errors); to_final, from_final and both verifiers likewise. FBE_PURE_RUBY=1 in
  # the environment keeps the accelerator unloaded; Fbe.accelerated? says whether it is in use.
  module Accel
    # The codec kinds of a plan (fbe_accel.c's enum).
    INT = 1
    BOOL = 2
    FLOAT = 3
    DOUBLE = 4
    STRING = 5
    BYTES = 6
    ENUM = 7
    STRUCT = 8
    OPTIONAL = 9
    VECTOR = 10
    ARRAY = 11
    CALL = 12

    module_function

    # The plan of a generated struct class, which the C code asks for once per class (Fbe::Accel.forget
    # makes it ask again), checks and remembers out of Ruby's reach: [body size, type id, decode cost,
    # class, [instance variable, slot offset, codec plan, field name]...], every Array frozen, or false
    # when the class's layout cannot be derived. Its values are written and read in pure Ruby when it
    # is false or when the C code finds it wrong (fbe_accel.c: checked_plan).
    def plan(klass)
      derive(klass) || false
    end

    # The versioned layout of the class: each field's slot follows the previous one from offset 8
    # (docs/format.md 3.4), which FBE_BODY_SIZE must confirm; each field's instance variable is the
    # one fbe_values returns at its place.
    def derive(klass)
      fields = klass::FBE_FIELDS
      names = variables(klass)
      return nil unless names && names.length == fields.length && small?(klass::FBE_COST)

      offset = 8
      plan = [klass::FBE_BODY_SIZE, klass::FBE_TYPE_ID, klass::FBE_COST, klass]
      fields.each_with_index do |(name, codec), i|
        plan << [names[i], offset, codec_plan(codec), name.dup.freeze].freeze
        offset += codec.size
      end
      offset == klass::FBE_BODY_SIZE ? plan.freeze : nil
    rescue StandardError
      nil
    end

    # Whether a size or cost is an Integer the C code computes with (sums and products of a few of them
    # and of u32 counts stay within 64 bits).
    def small?(number)
      number.is_a?(::Integer) && number >= 0 && number < (1 << 28)
    end

    # The instance variables fbe_values returns, in its order: the variable of each keyword of the
    # generated initialize (@name for name:) set to a distinct marker in an allocated value (no
    # default is made: a struct's defaults may be megabytes), read back through fbe_values.
    def variables(klass)
      value = klass.allocate
      names = klass.instance_method(:initialize).parameters.filter_map { |kind, name| :"@#{name}" if kind == :key }
      markers = names.map { Object.new }
      names.zip(markers) { |name, marker| value.instance_variable_set(name, marker) }
      value.fbe_values.map do |v|
        at = markers.index { |m| m.equal?(v) }
        return nil unless at

        names[at]
      end
    end

    # [kind, slot size, ...] of a field's codec (fbe_accel.c's enum names what follows the size); a codec
    # of another kind is called ([CALL, size, codec]: its write, read, fwrite and fread).
    def codec_plan(codec)
      raise ArgumentError, "slot size #{codec.size}" unless small?(codec.size)

      case codec
      when Types::Float then [codec.size == 4 ? FLOAT : DOUBLE, codec.size]
      when Types::Integer then [INT, codec.size, codec.min.negative? ? 1 : 0]
      when Types::Bool then [BOOL, 1]
      when Types::Text then [codec.instance_variable_get(:@binary) ? BYTES : STRING, 4]
      else collection_plan(codec)
      end.freeze
    end

    def collection_plan(codec)
      case codec
      when Types::Enum
        wire = codec.instance_variable_get(:@wire)
        type = codec.instance_variable_get(:@type)
        [ENUM, codec.size, wire.min.negative? ? 1 : 0, type, type::BY_VALUE]
      when Types::Struct then [STRUCT, 4, codec.instance_variable_get(:@type)]
      when Types::Optional then [OPTIONAL, 5, codec_plan(codec.element)]
      when Types::FixedArray
        length = codec.instance_variable_get(:@length)
        raise ArgumentError, "array length #{length}" unless small?(length)

        [ARRAY, codec.size, codec_plan(codec.element), length]
      when Types::Sequence
        codec.instance_variable_get(:@set) ? [CALL, 4, codec] : vector_plan(codec)
      else [CALL, codec.size, codec]
      end
    end

    # [VECTOR, 4, element plan, what an element costs, the fewest final bytes of an element] (Types::Sequence).
    def vector_plan(codec)
      cost = codec.instance_variable_get(:@item_cost)
      least = codec.item_min
      raise ArgumentError, "element cost #{cost}, size #{least}" unless small?(cost) && small?(least)

      [VECTOR, 4, codec_plan(codec.element), cost, least]
    end
  end

  ACCEL = ENV['FBE_PURE_RUBY'] != '1' && begin
    require 'fbe_accel'
    true
  rescue LoadError
    false
  end

  # Whether Fbe::Value#to_fbe writes through the C accelerator (ext/fbe_accel).
  def self.accelerated?
    ACCEL
  end
end
