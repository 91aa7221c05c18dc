/**
 * Before each unit and integration test file: how long Testing Library's
 * waits (findBy…, waitFor) keep trying. A wait ends as soon as what it
 * waits for is there; its cap is only how long to keep trying. Testing
 * Library's default cap of 1 s is a tight timeout: on a loaded two-core
 * machine (load average 13, with a second `npm test` running) a mirror
 * write took 1.6 s to reach the screen, and a server's answer to a users
 * edit more than 1 s, and the tests failed though nothing was wrong. 10 s
 * stays under the unit and integration layers' test timeouts
 * (vitest.config.ts), so a wait that fails still fails with its own
 * message and the page it saw.
 */
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 10_000 });
