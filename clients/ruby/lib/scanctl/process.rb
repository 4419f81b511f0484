require "fileutils"
require "json"
require "tmpdir"

module Scanctl
  WHERE = "SCANCTL_BASE_URL (a running emulator), SCANCTL_BIN (the scanctl executable), scanctl on PATH, " \
          "or node_modules/.bin/scanctl".freeze

  # A call the emulator refused (status and body kept), or an emulator that could not start.
  class Error < StandardError
    attr_reader :status, :body

    def initialize(message, status: nil, body: nil)
      super(message)
      @status = status
      @body = body
    end
  end

  # None of the four ways to reach scanctl gave one.
  class NotFound < Error; end

  # The scanctl executable to start: SCANCTL_BIN, else scanctl on PATH, else node_modules/.bin/scanctl
  # in dir or a folder above it. (SCANCTL_BASE_URL, checked by start, starts nothing.)
  def self.find_scanctl(dir = Dir.pwd)
    named = ENV["SCANCTL_BIN"].to_s
    unless named.empty?
      return named if File.file?(named) && File.executable?(named)

      raise NotFound, "SCANCTL_BIN=#{named} is not an executable file. scanctl is found through #{WHERE}."
    end
    ENV["PATH"].to_s.split(File::PATH_SEPARATOR).each do |folder|
      candidate = File.join(folder, "scanctl")
      return candidate if File.file?(candidate) && File.executable?(candidate)
    end
    folder = File.expand_path(dir)
    loop do
      candidate = File.join(folder, "node_modules", ".bin", "scanctl")
      return candidate if File.file?(candidate) && File.executable?(candidate)
      break if File.dirname(folder) == folder

      folder = File.dirname(folder)
    end
    raise NotFound, "scanctl not found: set SCANCTL_BASE_URL to a running emulator, or SCANCTL_BIN to the scanctl " \
                    "executable, or put scanctl on PATH, or install it into node_modules/.bin/scanctl " \
                    "(npm install scanctl). Tried #{WHERE}."
  end

  # serve in its own process group and temporary folder (its .scanctl/serve.json goes there); its
  # stdin is a pipe only this process holds, so serve stops by itself if this process dies.
  class Process
    attr_reader :pid, :ready

    def initialize(command, args, timeout)
      @folder = Dir.mktmpdir("scanctl-")
      @stderr_path = File.join(@folder, "stderr.log")
      argv = [command, "serve", "--port", "0", "--json", "--stop-on-stdin-close", *args]
      shown = argv.join(" ")
      stdin_read, @stdin = IO.pipe
      out_read, out_write = IO.pipe
      begin
        @pid = ::Process.spawn(*argv, chdir: @folder, in: stdin_read, out: out_write, err: @stderr_path, pgroup: true)
      rescue SystemCallError => e
        FileUtils.rm_rf(@folder)
        raise Error, "cannot start #{command}: #{e.message}"
      ensure
        stdin_read.close
        out_write.close
      end
      @waiter = ::Process.detach(@pid)
      first = Thread.new { out_read.gets }
      unless first.join(timeout)
        stop
        raise Error, "#{shown} printed no ready line within #{timeout} s: #{stderr_text}"
      end
      line = first.value
      # Whatever else serve prints, so its stdout never fills up.
      Thread.new do
        out_read.each_line { nil }
      rescue IOError
        nil
      end
      if line.nil?
        status = @waiter.value
        message = "#{shown} exited #{status.exitstatus} before it was ready: #{stderr_text}"
        stop
        raise Error, message
      end
      @ready = begin
        JSON.parse(line)
      rescue JSON::ParserError
        nil
      end
      return if @ready.is_a?(Hash) && @ready["object"] == "serve_ready"

      stop
      raise Error, "#{shown} printed #{line[0, 200].inspect}, not its JSON ready line"
    end

    # SIGTERM to the whole group, SIGKILL after 10 s; the folder removed. Safe to call twice.
    def stop
      return if @stopped

      @stopped = true
      %w[TERM KILL].each do |signal|
        kill(signal)
        break if @waiter.join(10)
      end
      @stdin.close unless @stdin.closed?
      kill("KILL") # the group, once more: a child serve started itself would be in it too
      FileUtils.rm_rf(@folder)
    end

    private

    def kill(signal)
      ::Process.kill(signal, -@pid)
    rescue Errno::ESRCH, Errno::EPERM
      nil
    end

    def stderr_text
      text = File.exist?(@stderr_path) ? File.binread(@stderr_path)[-2000..] || File.binread(@stderr_path) : ""
      text = text.to_s.strip
      text.empty? ? "(nothing on stderr)" : text.force_encoding("UTF-8").scrub
    end
  end
end
