require "minitest"
require "scanctl"
require "scanctl/shared"

module Scanctl
  # Minitest: `include Scanctl::Minitest` in a test class gives its tests `scanctl`, the process's one
  # emulator (Scanctl.emulator), restored after each test to a checkpoint taken before the first
  # one (after whatever the suite set up at load time); stopped, with its process group, after the
  # run (Minitest.after_run).
  #
  # One emulator per process: with `parallelize_me!` (threads) tests would share its state; run
  # parallel suites as processes instead, each with its own emulator.
  module Minitest
    # A test class that keeps its state across its tests: `scanctl_no_restore!` in its body.
    module ClassMethods
      def scanctl_no_restore!
        @scanctl_no_restore = true
      end

      def scanctl_no_restore?
        @scanctl_no_restore == true
      end
    end

    def self.included(base)
      base.extend(ClassMethods)
    end

    def scanctl
      Scanctl.emulator
    end

    def before_setup
      Scanctl.baseline
      super
    end

    def after_teardown
      super
      scanctl.restore(Scanctl.baseline) unless self.class.scanctl_no_restore?
    end
  end
end
