import Alert from 'antd/es/alert';

/**
 * "Figure X left out N (unit) of data because …": the one warning a period's KPIs show when they left data
 * out (excluded energy, doubted irradiance), shown only when something was left out. The caller words the
 * message; `amount` is the total left out, in the unit `attribute` names, for tests and tools.
 */
export function ExcludedNote({
  testId,
  attribute,
  amount,
  message,
}: {
  testId: string;
  attribute: 'data-excluded-hours' | 'data-excluded-kwh';
  amount: number;
  message: string;
}) {
  return (
    <Alert
      type="warning"
      showIcon
      className="coverage-warning"
      data-testid={testId}
      {...{ [attribute]: amount }}
      message={message}
    />
  );
}
