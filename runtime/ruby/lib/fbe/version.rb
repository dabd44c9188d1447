# frozen_string_literal: true

module Fbe
  VERSION = '1.0.0'
end
