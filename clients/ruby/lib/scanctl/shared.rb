require "scanctl"

# The process's one emulator and its checkpoint, shared by the Minitest helper and the RSpec hooks
# (neither framework is loaded here).
module Scanctl
  @shared_lock = Mutex.new

  # The process's one emulator (Scanctl.start with options once), stopped at the end of the run.
  def self.emulator(**options)
    @shared_lock.synchronize do
      @shared ||= begin
        emulator = start(**options)
        # Minitest runs its tests at exit: after_run comes after them; RSpec's hooks stop it after the
        # suite too (Scanctl::RSpec.install), and a second stop does nothing.
        if defined?(::Minitest.after_run)
          ::Minitest.after_run { emulator.stop }
        else
          at_exit { emulator.stop }
        end
        emulator
      end
    end
  end

  # The checkpoint every test is restored to: taken at the first call (the first test's setup).
  def self.baseline
    @baseline ||= emulator.checkpoint("ruby-suite")
  end
end
