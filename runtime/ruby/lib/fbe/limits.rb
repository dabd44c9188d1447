# frozen_string_literal: true

module Fbe
  # Deepest struct nesting a reader accepts and a writer writes (the root struct is level 1).
  MAX_DEPTH = 128
  # A decode may make this many bytes of values (counted in final-model sizes) per input byte ...
  BUDGET_FACTOR = 8
  # ... plus this many.
  BUDGET_SLACK = 4096
  # The largest protocol frame a receiver accepts (64 MiB).
  MAX_FRAME_SIZE = 64 << 20

  # The options of one reader (docs/limits.md): the same defaults in every language.
  #   Order.from_fbe(data, limits: Fbe::Limits.new(budget_factor: 32))
  Limits = Struct.new(:max_depth, :budget_factor, :budget_slack, :max_frame_size, keyword_init: true) do
    def initialize(max_depth: MAX_DEPTH, budget_factor: BUDGET_FACTOR, budget_slack: BUDGET_SLACK,
                   max_frame_size: MAX_FRAME_SIZE)
      super
    end

    # The decode budget of an input of input_size bytes.
    def budget(input_size)
      (budget_factor * input_size) + budget_slack
    end
  end

  DEFAULT_LIMITS = Limits.new.freeze
end
