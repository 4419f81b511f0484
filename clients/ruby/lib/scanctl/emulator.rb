require "json"
require "net/http"
require "uri"

module Scanctl
  CONTROL = "/_scanctl".freeze
  ENDED = %w[succeeded failed cancelled].freeze

  # A running emulator: its URL and the default app's test credentials, and its control plane.
  # Safe to share between threads (one kept-alive connection per thread).
  class Emulator
    attr_reader :base_url, :app_id, :secret_key, :publishable_key, :webhook_secret

    def initialize(base_url, app_id, secret_key, publishable_key, webhook_secret, process = nil)
      @base_url = base_url.chomp("/")
      @app_id = app_id
      @secret_key = secret_key
      @publishable_key = publishable_key
      @webhook_secret = webhook_secret
      @process = process
      @uri = URI(@base_url)
      @connections = {}
      @lock = Mutex.new
    end

    # The emulator's process id, when this library started it (nil for SCANCTL_BASE_URL).
    def pid
      @process&.pid
    end

    # The environment contract, for code of yours that reads SCANCTL_* (scanctl exec sets the same).
    def env
      { "SCANCTL_BASE_URL" => base_url, "SCANCTL_APP_ID" => app_id, "SCANCTL_SECRET_KEY" => secret_key,
        "SCANCTL_PUBLISHABLE_KEY" => publishable_key, "SCANCTL_WEBHOOK_SECRET" => webhook_secret }
    end

    # One call: [status, parsed JSON body, headers]. A status outside 2xx (and ok) raises Scanctl::Error.
    def request(method, path, body = nil, headers: {}, ok: [])
      request = Net::HTTPGenericRequest.new(method.to_s.upcase, !body.nil?, true, path, headers)
      unless body.nil?
        request.body = JSON.generate(body)
        request["content-type"] = "application/json"
      end
      answer = send_once(request)
      status = answer.code.to_i
      parsed = answer.body.to_s.empty? ? nil : JSON.parse(answer.body)
      unless (200..299).cover?(status) || ok.include?(status)
        raise Error.new("#{method.to_s.upcase} #{path} answered #{status}: #{answer.body.to_s[0, 500]}", status: status, body: parsed)
      end

      [status, parsed, answer]
    rescue JSON::ParserError
      [status, answer.body, answer]
    end

    # The whole state (every table, the clock, pending deliveries), kept; its id.
    def checkpoint(name = nil)
      json(:post, "#{CONTROL}/state/checkpoints", name ? { name: name } : nil)["id"]
    end

    # Puts the state back as the checkpoint (id or name) holds it.
    def restore(checkpoint)
      json(:post, "#{CONTROL}/state/checkpoints/#{URI.encode_www_form_component(checkpoint)}/restore")
    end

    # POST /v1/sessions with the test secret key; the 201 body ("session_token", "expires_at").
    def mint_session(user, **fields)
      json(:post, "/v1/sessions", { host_user_ref: user, **fields }, headers: { "authorization" => "Bearer #{secret_key}" })
    end

    # Plays one scan of user as the SDK does; with wait, returns once its deliveries are acknowledged
    # (or cannot be), play_retries moving the clock to each retry. Returns {"scan", "deliveries" (each
    # with its "attempts"), "ok", "reason", "clock_moves"}.
    def simulate_scan(user, outcome: "completed", play_retries: false, wait: true, timeout: 10)
      run = json(:post, "#{CONTROL}/apps/#{app_id}/scans/simulate",
                 { host_user_ref: user, outcome: outcome, wait: wait, play_retries: play_retries, timeout_ms: (timeout * 1000).to_i })
      waited = run["wait"] || {}
      { "scan" => run["scan"], "deliveries" => waited["log"] || [], "ok" => waited.fetch("ok", true),
        "reason" => waited["reason"], "clock_moves" => waited["clock_moves"] || [] }
    end

    # The app's deliveries, newest first (filters: scan_id, event_id, host_user_ref, status, limit).
    def deliveries(**filters)
      query = { app_id: app_id, limit: 1000 }.merge(filters.compact)
      json(:get, "#{CONTROL}/webhooks/deliveries?#{URI.encode_www_form(query)}")["data"]
    end

    REACHED = {
      "attempted" => ->(d) { d["attempts"] >= 1 },
      "acknowledged" => ->(d) { d["status"] == "succeeded" },
      "exhausted" => ->(d) { d["status"] == "failed" },
      "settled" => ->(d) { ENDED.include?(d["status"]) }
    }.freeze

    # Waits until at least count matching deliveries exist and each reached until: (attempted,
    # acknowledged, exhausted, settled); returns them with their "attempt_log". play_retries moves the
    # clock to each retry once the failed attempt before it is recorded. Raises Scanctl::Error when
    # one cannot get there, or after timeout real seconds.
    def wait_for_deliveries(scan_id: nil, event_id: nil, host_user_ref: nil, count: 1, play_retries: false, timeout: 10, **options)
      goal = options.fetch(:until, "acknowledged").to_s
      reached = REACHED.fetch(goal) { raise ArgumentError, "until: one of #{REACHED.keys.join(', ')}" }
      deadline = monotonic + timeout
      loop do
        found = deliveries(scan_id: scan_id, event_id: event_id, host_user_ref: host_user_ref)
        if found.size >= count && found.all?(&reached)
          return found.map { |d| json(:get, "#{CONTROL}/webhooks/deliveries/#{d['id']}") }
        end

        stuck = found.find { |d| ENDED.include?(d["status"]) && !reached.call(d) }
        if stuck
          raise Error, "delivery #{stuck['id']} ended #{stuck['status']} after #{stuck['attempts']} attempts: it can no longer be #{goal}"
        end
        next if play_retries && play_next_retry(found)

        if monotonic > deadline
          states = found.map { |d| "#{d['id']}:#{d['status']}" }.join(" ")
          raise Error, "timed out after #{timeout} s waiting for #{count} deliveries to be #{goal}: #{states}"
        end
        sleep 0.01
      end
    end

    # Moves the virtual clock forward ("2h", "90s", or seconds), playing what falls due on the way.
    def advance_clock(duration)
      duration = "#{(duration * 1000).round}ms" if duration.is_a?(Numeric)
      json(:post, "#{CONTROL}/clock/advance", { duration: duration })
    end

    def clock
      json(:get, "#{CONTROL}/clock")
    end

    # Where the app's webhooks go (the portal's setting; nil removes it); the app as the portal shows it.
    def set_webhook_url(url)
      @cookie ||= begin
        account = json(:get, "#{CONTROL}/apps/#{app_id}")["account_id"]
        _, _, answer = request(:post, "#{CONTROL}/portal/login", { account_id: account })
        answer["set-cookie"].split(";", 2).first
      end
      app = json(:patch, "/v1/apps/#{app_id}", { webhook_url: url }, headers: { "cookie" => @cookie })
      @webhook_secret = app["webhook_secret"] if app["webhook_secret"]
      app
    end

    # Stops the emulator this library started, with its whole process group; a SCANCTL_BASE_URL one is
    # left running.
    def stop
      @lock.synchronize do
        @connections.each_value { |http| http.finish if http.started? }
        @connections.clear
      end
      @process&.stop
    end

    def json(method, path, body = nil, headers: {})
      request(method, path, body, headers: headers)[1]
    end

    private

    def send_once(request)
      attempt = 0
      begin
        attempt += 1
        connection.request(request)
      rescue IOError, EOFError, SystemCallError, Net::HTTPBadResponse
        drop_connection
        raise if attempt >= 2

        retry
      end
    end

    def connection
      @lock.synchronize do
        @connections[Thread.current] ||= Net::HTTP.new(@uri.host, @uri.port).tap do |http|
          http.read_timeout = 130
          http.keep_alive_timeout = 30
          http.start
        end
      end
    end

    def drop_connection
      http = @lock.synchronize { @connections.delete(Thread.current) }
      http.finish if http&.started?
    rescue IOError
      nil
    end

    def play_next_retry(found)
      due = found.select { |d| d["status"] == "pending" && d["attempts"].positive? && d["next_attempt_at"] }
                 .map { |d| d["next_attempt_at"] }.min
      return false if due.nil? || due <= clock["now"]

      status, = request(:post, "#{CONTROL}/clock/set", { time: due }, ok: [400])
      status == 200
    end

    def monotonic
      ::Process.clock_gettime(::Process::CLOCK_MONOTONIC)
    end
  end

  # An emulator someone else runs (scanctl exec, CI's service): its credentials from the environment,
  # else from its control plane.
  def self.attach(base_url)
    probe = Emulator.new(base_url, "", "", "", "")
    app_id = ENV["SCANCTL_APP_ID"].to_s
    app_id = probe.json(:get, "#{CONTROL}/info")["default_app_id"] if app_id.empty?
    secret, publishable, whsec = %w[SCANCTL_SECRET_KEY SCANCTL_PUBLISHABLE_KEY SCANCTL_WEBHOOK_SECRET].map { |name| ENV[name].to_s }
    if secret.empty? || publishable.empty?
      keys = probe.json(:get, "#{CONTROL}/apps/#{app_id}/fixture-keys")["test"] || {}
      secret = keys["secret"].to_s if secret.empty?
      publishable = keys["publishable"].to_s if publishable.empty?
    end
    whsec = (probe.json(:get, "#{CONTROL}/apps/#{app_id}/webhook-secret") || {})["webhook_secret"].to_s if whsec.empty?
    probe.stop
    Emulator.new(base_url, app_id, secret, publishable, whsec)
  end

  # An emulator for this process: the one SCANCTL_BASE_URL names (never stopped by us), else a new
  # `scanctl serve --port 0 --json --db :memory:` (or db), ready once its JSON ready line arrived. The
  # rate limit is off (0) as in every scanctl test run. With a block: yields it, then stops it.
  def self.start(fixtures: nil, seed: nil, frozen_clock: false, clock_start: nil, db: ":memory:", rate_limit: 0, args: [], timeout: 60)
    emulator = start_emulator(fixtures, seed, frozen_clock, clock_start, db, rate_limit, args, timeout)
    return emulator unless block_given?

    begin
      yield emulator
    ensure
      emulator.stop
    end
  end

  def self.start_emulator(fixtures, seed, frozen_clock, clock_start, db, rate_limit, args, timeout)
    base_url = ENV["SCANCTL_BASE_URL"].to_s
    return attach(base_url) unless base_url.empty?

    extra = ["--db", db == ":memory:" ? db : File.expand_path(db), "--rate-limit", rate_limit.to_s]
    extra += ["--fixtures", File.expand_path(fixtures)] if fixtures
    extra += ["--seed", seed.to_s] if seed
    extra << "--frozen-clock" if frozen_clock
    extra += ["--clock-start", clock_start] if clock_start
    process = Process.new(find_scanctl, extra + args, timeout)
    ready = process.ready
    Emulator.new(ready["base_url"], ready["app_id"], ready["test_secret_key"].to_s, ready["test_publishable_key"].to_s,
                 ready.dig("env", "SCANCTL_WEBHOOK_SECRET").to_s, process)
  end
  private_class_method :start_emulator
end
