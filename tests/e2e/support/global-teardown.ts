/** Runs once after the end-to-end suite: stops the release the global setup started if it still runs. */
import { stopRelease } from "./release";

export default function globalTeardown(): void {
  stopRelease();
}
