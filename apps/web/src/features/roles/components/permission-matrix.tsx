import Checkbox from 'antd/es/checkbox';
import { useTranslation } from 'react-i18next';
import { METHODS, PAGES, type Method, type Page, type Permission } from '@solar/shared';

interface PermissionMatrixProps {
  value?: Permission[];
  onChange?: (value: Permission[]) => void;
  disabled?: boolean;
}

const keyOf = (page: Page, method: Method) => `${page}:${method}`;

/**
 * The permission grid of a role: a row per page, a column per method, with a toggle for each row and
 * each column. A form control: `value` is the list of (page, method) pairs.
 */
export function PermissionMatrix({ value = [], onChange, disabled }: PermissionMatrixProps) {
  const { t } = useTranslation();
  const held = new Set(value.map((p) => keyOf(p.page, p.method)));
  const emit = (next: Set<string>) =>
    onChange?.(
      PAGES.flatMap((page) =>
        METHODS.filter((m) => next.has(keyOf(page, m))).map((method) => ({ page, method })),
      ),
    );
  const setMany = (pairs: [Page, Method][], on: boolean) => {
    const next = new Set(held);
    for (const [page, method] of pairs) {
      if (on) next.add(keyOf(page, method));
      else next.delete(keyOf(page, method));
    }
    emit(next);
  };
  const state = (pairs: [Page, Method][]) => {
    const count = pairs.filter(([p, m]) => held.has(keyOf(p, m))).length;
    return { checked: count === pairs.length, indeterminate: count > 0 && count < pairs.length };
  };
  const rowPairs = (page: Page) => METHODS.map((m): [Page, Method] => [page, m]);
  const columnPairs = (method: Method) => PAGES.map((p): [Page, Method] => [p, method]);
  const all = PAGES.flatMap(rowPairs);

  return (
    <table className="permission-matrix" data-testid="role-field-permissions">
      <thead>
        <tr>
          <th scope="col" className="permission-matrix-page">
            <Checkbox
              {...state(all)}
              disabled={disabled}
              onChange={(e) => setMany(all, e.target.checked)}
              data-testid="role-perm-all"
            >
              {t('roles.page')}
            </Checkbox>
          </th>
          {METHODS.map((method) => (
            <th scope="col" key={method}>
              <Checkbox
                {...state(columnPairs(method))}
                disabled={disabled}
                onChange={(e) => setMany(columnPairs(method), e.target.checked)}
                data-testid={`role-perm-col-${method}`}
              >
                {t(`roles.methods.${method}`)}
              </Checkbox>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {PAGES.map((page) => (
          <tr key={page}>
            <th scope="row" className="permission-matrix-page">
              <Checkbox
                {...state(rowPairs(page))}
                disabled={disabled}
                onChange={(e) => setMany(rowPairs(page), e.target.checked)}
                data-testid={`role-perm-row-${page}`}
              >
                {t(`permissionPages.${page}`)}
              </Checkbox>
            </th>
            {METHODS.map((method) => (
              <td key={method}>
                <Checkbox
                  checked={held.has(keyOf(page, method))}
                  disabled={disabled}
                  onChange={(e) => setMany([[page, method]], e.target.checked)}
                  aria-label={`${t(`permissionPages.${page}`)} · ${t(`roles.methods.${method}`)}`}
                  data-testid={`role-perm-${page}-${method}`}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
