require "scanctl"
require "scanctl/shared"

module Scanctl
  # RSpec: `Scanctl::RSpec.install(config)` in spec_helper's RSpec.configure block (or
  # `config.include Scanctl::RSpec::Helpers` and your own hooks). Gives examples `scanctl`, the
  # process's one emulator, restored after each example to a checkpoint taken before the first one;
  # stopped after the suite. Metadata `scanctl_no_restore: true` keeps an example's state.
  module RSpec
    module Helpers
      def scanctl
        Scanctl.emulator
      end
    end

    def self.install(config)
      config.include Helpers
      config.before(:each) { Scanctl.baseline }
      config.after(:each) do |example|
        Scanctl.emulator.restore(Scanctl.baseline) unless example.metadata[:scanctl_no_restore]
      end
      config.after(:suite) { Scanctl.emulator.stop }
    end
  end
end
