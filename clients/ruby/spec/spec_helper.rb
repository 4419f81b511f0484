# The RSpec side of the library's tests: run `rspec` in clients/ruby with the gem installed.
require "json"
require "scanctl/rspec"

RSpec.configure do |config|
  Scanctl::RSpec.install(config)
  if (folder = ENV["SCANCTL_TEST_RECORD"]) # the npm suite checks that this emulator is gone afterwards
    config.before(:suite) do
      File.write(File.join(folder, "rspec.json"), JSON.generate(worker: "rspec", pid: Scanctl.emulator.pid))
    end
  end
end
