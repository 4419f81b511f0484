# Test against the scanctl emulator from Ruby: net/http and openssl only (minitest or RSpec optional).
#
#   require "scanctl"
#   Scanctl.start do |emulator|               # SCANCTL_BASE_URL, else SCANCTL_BIN, else scanctl on
#     emulator.mint_session("member_1")       # PATH, else node_modules/.bin/scanctl
#   end
require "scanctl/version"
require "scanctl/signature"
require "scanctl/process"
require "scanctl/emulator"
require "scanctl/server"
