import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The webhook signature check. */
public final class Verify {
  private Verify() {}

  /**
   * Service-Signature is the hex HMAC-SHA256 of the raw body bytes, keyed with the webhook signing
   * secret (whsec_...). Verify before parsing the body.
   */
  public static boolean verify(byte[] rawBody, String signature, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] expected = HexFormat.of().formatHex(mac.doFinal(rawBody)).getBytes(StandardCharsets.US_ASCII);
      byte[] given = (signature == null ? "" : signature.strip().toLowerCase()).getBytes(StandardCharsets.US_ASCII);
      return MessageDigest.isEqual(expected, given);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
