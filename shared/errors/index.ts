export { AppError, ErrorCode, ErrorShape, describeZodError, toErrorShape } from './app-error';
