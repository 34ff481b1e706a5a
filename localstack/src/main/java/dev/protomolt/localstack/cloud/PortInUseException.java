package dev.protomolt.localstack.cloud;

/**
 * A component of the local cloud could not listen on its loopback port because something else
 * already does. The message names the component, the port and the setting that moves it, because
 * that is all a person needs to fix it.
 */
public final class PortInUseException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final int port;
  private final String setting;

  public PortInUseException(String component, int port, String setting, Throwable cause) {
    super(
        component
            + " cannot listen on 127.0.0.1:"
            + port
            + " because the port is already in use;"
            + " stop whatever holds it or choose another port with -D"
            + setting
            + "=PORT"
            + " (0 picks a free port)",
        cause);
    this.port = port;
    this.setting = setting;
  }

  public int port() {
    return port;
  }

  /** The system property that sets this component's port. */
  public String setting() {
    return setting;
  }
}
