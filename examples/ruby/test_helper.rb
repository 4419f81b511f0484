require "minitest/autorun"
require "scanctl/minitest"
require_relative "app"

APP = App.new
SERVER = Scanctl.serve(APP) # the app on a free port, for the run
Minitest.after_run { SERVER.stop }
Scanctl.emulator.set_webhook_url("#{SERVER.url}/webhooks")
ENV.update(Scanctl.emulator.env) # the app reads SCANCTL_* as it would in production
