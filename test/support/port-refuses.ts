import { connect } from 'node:net';

/** Whether nothing accepts connections on this loopback port (a stopped server has let go of it). */
export function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
