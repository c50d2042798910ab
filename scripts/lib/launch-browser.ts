/** Moved to native-host/browser so `deputy loop` can start a browser for a web form trigger too. */
export * from '../../native-host/browser/launch-browser';
