package scanctl;

/** A call the emulator refused (its status and error body kept), or an emulator that could not start. */
public class ScanctlException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final transient Object body;

  public ScanctlException(String message) {
    this(message, 0, null);
  }

  public ScanctlException(String message, int status, Object body) {
    super(message);
    this.status = status;
    this.body = body;
  }

  /** The HTTP status of a refused call (0 when no call was refused). */
  public int status() {
    return status;
  }

  /** The parsed error body of a refused call, or null. */
  public Object body() {
    return body;
  }

  /** None of the four ways to reach scanctl gave one. */
  public static class NotFound extends ScanctlException {
    private static final long serialVersionUID = 1L;

    public NotFound(String message) {
      super(message);
    }
  }
}
