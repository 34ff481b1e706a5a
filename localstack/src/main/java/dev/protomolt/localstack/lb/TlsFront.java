package dev.protomolt.localstack.lb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * The local stand-in of the network load balancer's TLS listener: a loopback TCP front that ends
 * TLS with the local cloud's certificate and forwards the plaintext bytes to the target port, as
 * the NLB ends TLS with the ACM certificate and forwards to the task (decision 1745). ALPN offers
 * {@code h2} only, as the stack's listener does ({@code HTTP2_ONLY}), which gRPC clients require.
 *
 * <p>A client that does not complete a TLS handshake against the certificate (plaintext, or one
 * that does not trust the CA) never reaches the target: the front closes the connection.
 */
public final class TlsFront implements AutoCloseable {

  private final SSLServerSocket server;
  private final IntSupplier targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  private TlsFront(SSLServerSocket server, IntSupplier targetPort, String name) {
    this.server = server;
    this.targetPort = targetPort;
    this.acceptor = Thread.ofVirtual().name(name + "-accept").unstarted(this::acceptLoop);
  }

  /**
   * Listens on loopback {@code port} (0: a free one), presenting {@code certificates}, forwarding
   * every connection to loopback {@code targetPort} (read per connection, so a target that starts
   * later or moves is found).
   */
  public static TlsFront start(
      int port, LocalCertificates certificates, IntSupplier targetPort, String name) {
    try {
      SSLServerSocket server =
          (SSLServerSocket)
              certificates.serverContext().getServerSocketFactory().createServerSocket();
      server.setReuseAddress(true);
      SSLParameters params = server.getSSLParameters();
      params.setApplicationProtocols(new String[] {"h2"});
      params.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
      server.setSSLParameters(params);
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
      TlsFront front = new TlsFront(server, targetPort, name);
      front.acceptor.start();
      return front;
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot listen on loopback port " + port, e);
    }
  }

  /** The port the front listens on. */
  public int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        if (server.isClosed()) {
          return;
        }
        continue;
      }
      Thread.ofVirtual().start(() -> serve((SSLSocket) client));
    }
  }

  private void serve(SSLSocket client) {
    open.add(client);
    Socket target = null;
    try {
      // The handshake first: nothing reaches the target from a client that cannot complete it.
      client.startHandshake();
      target = new Socket(InetAddress.getLoopbackAddress(), targetPort.getAsInt());
      target.setTcpNoDelay(true);
      client.setTcpNoDelay(true);
      open.add(target);
      Socket upstream = target;
      Thread back = Thread.ofVirtual().start(() -> pump(upstream, client));
      pump(client, upstream);
      back.join();
    } catch (IOException e) {
      // A failed handshake or a refused target: the client sees its connection closed.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(client);
      if (target != null) {
        closeQuietly(target);
      }
    }
  }

  /** Copies {@code from} to {@code to} until either ends, then half-closes the other way. */
  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (SocketException closed) {
      // The other side closed: nothing more to copy.
    } catch (IOException e) {
      // As above: a connection ending is not the front's error.
    } finally {
      closeQuietly(to);
      closeQuietly(from);
    }
  }

  private void closeQuietly(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException e) {
      // Closing: nothing left to do with it.
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // Stopping anyway.
    }
    for (Socket s : open) {
      closeQuietly(s);
    }
  }
}
