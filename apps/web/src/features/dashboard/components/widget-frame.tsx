import type { ReactNode } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Tooltip from 'antd/es/tooltip';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DragOutlined from '@ant-design/icons/DragOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import { useTranslation } from 'react-i18next';
import { LoadingSpin } from '../../../components';

/** What the dashboard hands every widget for its frame: edit mode and the frame's two actions. */
export interface FrameControls {
  editing: boolean;
  onSettings: () => void;
  onRemove: () => void;
}

/** Class of the element the grid drags a widget by (its title bar, in edit mode). */
export const DRAG_HANDLE_CLASS = 'dashboard-drag-handle';

interface WidgetFrameProps {
  frame: FrameControls;
  title: string;
  /** The widget's own controls in its title bar (a year selector), shown outside edit mode too. */
  controls?: ReactNode;
  children: ReactNode;
}

/**
 * A widget's card: its title bar (the drag handle in edit mode, with settings and remove buttons) and
 * its body, which scrolls inside the grid cell rather than stretching it.
 */
export function WidgetFrame({ frame, title, controls, children }: WidgetFrameProps) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      className="dashboard-widget"
      title={
        <div
          className={frame.editing ? `dashboard-widget-title ${DRAG_HANDLE_CLASS}` : 'dashboard-widget-title'}
        >
          {frame.editing && <DragOutlined aria-hidden="true" className="dashboard-drag-icon" />}
          <span className="dashboard-widget-name" title={title} data-testid="widget-title">
            {title}
          </span>
        </div>
      }
      extra={
        <div className="dashboard-widget-actions">
          {controls}
          {frame.editing && (
            <>
              <Tooltip title={t('dashboard.settings.title')}>
                <Button
                  size="small"
                  type="text"
                  icon={<SettingOutlined />}
                  aria-label={t('dashboard.settings.title')}
                  data-testid="widget-settings"
                  onClick={frame.onSettings}
                />
              </Tooltip>
              <Tooltip title={t('dashboard.remove')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('dashboard.remove')}
                  data-testid="widget-remove"
                  onClick={frame.onRemove}
                />
              </Tooltip>
            </>
          )}
        </div>
      }
    >
      {children}
    </Card>
  );
}

interface WidgetStateProps {
  isLoading: boolean;
  isError: boolean;
  /** True when loaded but there is nothing to show. */
  isEmpty: boolean;
  onRetry: () => void;
  /** The empty state's text; `dashboard.state.empty` unless told. */
  emptyText?: string;
  children: ReactNode;
}

/** A widget body's loading, error (with retry) and empty states around its content. */
export function WidgetState({ isLoading, isError, isEmpty, onRetry, emptyText, children }: WidgetStateProps) {
  const { t } = useTranslation();
  if (isLoading)
    return (
      <div className="dashboard-widget-center" data-testid="widget-loading">
        <LoadingSpin label={t('plantView.common.loading')} />
      </div>
    );
  if (isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="widget-error"
        title={t('dashboard.state.error')}
        action={
          <Button size="small" onClick={onRetry}>
            {t('plantView.common.retry')}
          </Button>
        }
      />
    );
  if (isEmpty)
    return (
      <Empty
        className="dashboard-widget-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={emptyText ?? t('dashboard.state.empty')}
        data-testid="widget-empty"
      />
    );
  return <>{children}</>;
}

/** The body of a widget that needs a setting the user has not made yet (a plant, a signal). */
export function WidgetNeedsSetting({ text, frame }: { text: string; frame: FrameControls }) {
  const { t } = useTranslation();
  return (
    <Empty
      className="dashboard-widget-empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={text}
      data-testid="widget-needs-setting"
    >
      {frame.editing && (
        <Button size="small" onClick={frame.onSettings}>
          {t('dashboard.settings.title')}
        </Button>
      )}
    </Empty>
  );
}
