# The team's own Rack app, in miniature: its backend mints sessions and takes the service's webhooks.
require "json"
require "net/http"
require "scanctl"

class App
  attr_reader :received # [event id, event] of each verified delivery

  def initialize
    @received = []
  end

  def call(env)
    body = env["rack.input"].read # the raw bytes: verified before parsing
    case env["PATH_INFO"]
    when "/sessions"
      answer = Net::HTTP.post(URI("#{ENV['SCANCTL_BASE_URL']}/v1/sessions"), JSON.generate(host_user_ref: JSON.parse(body)["user"]),
                              "Authorization" => "Bearer #{ENV['SCANCTL_SECRET_KEY']}", "Content-Type" => "application/json")
      [201, { "content-type" => "application/json" }, [JSON.generate(token: JSON.parse(answer.body)["session_token"])]]
    when "/webhooks"
      return [400, {}, []] unless Scanctl.verify_signature(body, env["HTTP_SERVICE_SIGNATURE"], ENV["SCANCTL_WEBHOOK_SECRET"])

      event = env["HTTP_SERVICE_EVENT_ID"]
      first = @received.none? { |seen, _| seen == event }
      @received << [event, JSON.parse(body)]
      [first ? 500 : 204, {}, []] # fails each event's first attempt: every test plays a retry
    else
      [404, {}, []]
    end
  end
end
