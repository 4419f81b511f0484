require_relative "lib/scanctl/version"

Gem::Specification.new do |spec|
  spec.name = "scanctl"
  spec.version = Scanctl::VERSION
  spec.summary = "Test against the scanctl emulator: a Minitest helper, RSpec hooks, signature checks " \
                 "and a server for your own Rack app."
  spec.authors = ["scanctl"]
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb"] + ["README.md"]
  spec.require_paths = ["lib"]
  # net/http, openssl, json and socket only; minitest (bundled with Ruby) or RSpec is the test's own.
end
