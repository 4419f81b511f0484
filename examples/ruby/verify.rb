require "openssl"

# Service-Signature is the hex HMAC-SHA256 of the raw body bytes, keyed with the webhook signing
# secret (whsec_...). Verify before parsing the body.
def verify(raw_body, signature, secret)
  expected = OpenSSL::HMAC.hexdigest("SHA256", secret, raw_body)
  given = signature.to_s.strip.downcase
  given.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(expected, given)
end
