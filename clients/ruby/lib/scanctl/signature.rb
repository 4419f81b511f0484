require "openssl"

module Scanctl
  # Whether Service-Signature is the hex HMAC-SHA256 of the raw body bytes, keyed with the webhook
  # signing secret (whsec_...). Check the bytes as received, before parsing them; the comparison
  # takes constant time.
  def self.verify_signature(body, signature, secret)
    expected = OpenSSL::HMAC.hexdigest("SHA256", secret, body)
    given = signature.to_s.strip.downcase
    given.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(expected, given)
  end
end
