package scanctl;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: {@code @ExtendWith(ScanctlExtension.class)} on a test class gives its constructor,
 * {@code @BeforeAll}, {@code @BeforeEach} and test methods a {@link Scanctl} parameter: one emulator
 * per test class, started before the class and stopped after it (with every process it started).
 * The first test's {@code @BeforeEach} phase takes a checkpoint (after the class's {@code @BeforeAll}
 * set up what it needs), and each test is restored to it afterwards, unless it (or its class) is
 * annotated {@link NoRestore}.
 *
 * <p>Classes may run in parallel (JUnit's parallel execution): each has its own emulator, port and
 * database. The methods of one class share its emulator's state: keep them on one thread
 * ({@code @Execution(SAME_THREAD)}, the default).
 */
public final class ScanctlExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ScanctlExtension.class);

  /** Leave the emulator's state as this test (or every test of this class) left it: no restore after it. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.METHOD, ElementType.TYPE})
  public @interface NoRestore {
  }

  /** The emulator and the checkpoint of one test class; closed by JUnit when the class ends. */
  private static final class Running implements ExtensionContext.Store.CloseableResource {
    final Scanctl scanctl = Scanctl.start();
    String baseline;

    @Override
    public void close() {
      scanctl.close();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    running(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    Running running = running(context);
    synchronized (running) {
      if (running.baseline == null) running.baseline = running.scanctl.checkpoint("junit-" + context.getRequiredTestClass().getSimpleName());
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    boolean keep = context.getRequiredTestMethod().isAnnotationPresent(NoRestore.class)
        || context.getRequiredTestClass().isAnnotationPresent(NoRestore.class);
    Running running = running(context);
    if (!keep && running.baseline != null) running.scanctl.restore(running.baseline);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Scanctl.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return running(context).scanctl;
  }

  /** The class's emulator: kept in the store of the class's context (a test's context finds it there). */
  private static Running running(ExtensionContext context) {
    ExtensionContext owner = context;
    while (owner.getTestMethod().isPresent() && owner.getParent().isPresent()) owner = owner.getParent().get();
    return owner.getStore(NAMESPACE).getOrComputeIfAbsent(Running.class, key -> new Running(), Running.class);
  }
}
